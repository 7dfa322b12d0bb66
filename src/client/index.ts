// "yardmaster/client": the typed HTTP client for users' code, and the API's types it is built on,
// generated from the server's /openapi.json (openapi.ts; docs/client.md). It imports nothing of
// the server, so a script or a browser bundle that uses it carries only these few files.
export type {
  BodyOf,
  HttpMethod,
  OperationOf,
  PathParamsOf,
  PathsOf,
  QueryOf,
  RequestOptions,
  ResponseOf,
} from "./api-paths.ts";
export { ApiRefusal } from "./api-refusal.ts";
export {
  type ApiResponse,
  type ClientOptions,
  createClient,
  type QueryValue,
  YardmasterClient,
} from "./create-client.ts";
export { type components, EVENT_NAMES, type operations, type paths } from "./openapi.ts";

import type { components } from "./openapi.ts";

/** Every resource and input of the API by its schema name: `Schemas["RunDetail"]`. */
export type Schemas = components["schemas"];
/** A name of the closed event vocabulary; plugin events (`plugin.<workflow>.<name>`) are open. */
export type EventName = Schemas["EventName"];
export type ErrorCode = Schemas["ErrorCode"];
