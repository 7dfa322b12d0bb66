// A JSON value as a type. Shared because every layer speaks it: authors' node results and
// routing (authoring), the records the engine keeps and stores persist (engine/domain.ts
// re-exports it), the service's views and the plugin host; none of them should import another
// layer just to name JSON.
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
