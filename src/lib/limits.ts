// The bounds the shared JSON Schema compiler (json-schema.ts) and excerpts (excerpt.ts) apply,
// kept here so that lib/ needs nothing of the service. They are also request limits of the
// HTTP API: service/limits.ts re-exports them beside the others, as the one list
// docs/http.md "Limits" describes.

/** Nesting of any JSON request body, and of any JSON Schema the service compiles. */
export const MAX_JSON_DEPTH = 64;

/** A JSON Schema (a form, an output model, an action's input model), in characters of JSON. */
export const MAX_SCHEMA_LENGTH = 65_536;

/** How much of a client's own input a refusal repeats back (`error`, an issue's `msg`). */
export const MAX_ECHO_LENGTH = 200;
