// One source for validation, TypeScript types and /openapi.json: every resource and body of
// http-api.md as a zod schema and its inferred type, under the same name.
export * from "./agent.ts";
export * from "./common.ts";
export * from "./events.ts";
export * from "./explain.ts";
export * from "./graph.ts";
export * from "./log.ts";
export * from "./plugins.ts";
export * from "./queries.ts";
export * from "./refs.ts";
export * from "./requests.ts";
export * from "./runs.ts";
export * from "./schedules.ts";
export * from "./server.ts";
export * from "./tasks.ts";
export * from "./workflows.ts";
