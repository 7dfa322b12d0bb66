// One field-level problem, the `ValidationError` item of http-api.md. Shared because its
// producers sit on both sides of the service: the JSON Schema compiler here in lib/, the
// plugins' input models, the HTTP layer's zod checks and the service's own refusals
// (service/errors.ts re-exports it beside the catalogue).

/** One field-level problem, as `http-api.md` ValidationError. */
export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}
