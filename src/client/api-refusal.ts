// The one error a client call throws for an answer that is not a success: the API's refusal
// `{error, code, ...extras}` (http.md, "Refusals"), kept whole so callers can read `errors[]`
// (a 422's field issues) or any other extra the code documents.
import type { components } from "./openapi.ts";

type ErrorCode = components["schemas"]["ErrorCode"];

export class ApiRefusal extends Error {
  readonly status: number;
  /** The refusal's code; "unknown" when the answer carried none (e.g. from a proxy). */
  readonly code: ErrorCode | "unknown";
  readonly body: Record<string, unknown>;

  constructor(status: number, body: Record<string, unknown>) {
    super(typeof body.error === "string" ? body.error : `HTTP ${status}`);
    this.name = "ApiRefusal";
    this.status = status;
    this.code = typeof body.code === "string" ? (body.code as ErrorCode) : "unknown";
    this.body = body;
  }
}
