// Domain refusals. A command checks the current state and throws an EngineError when the change
// cannot be made; the engine knows nothing of HTTP. The service maps each code to the error
// catalogue (service/errors.ts), where the codes keep the same names so a refusal reads the
// same from every adapter.

/** Why a command refused: each is also a code of the service's error catalogue. */
export type DomainErrorCode =
  | "not_found"
  | "conflict"
  | "validation"
  | "invalid_option"
  | "already_answered"
  | "stale_request"
  | "unknown_workflow"
  | "unknown_node"
  | "unknown_pool"
  | "forbidden";

export class EngineError extends Error {
  readonly code: DomainErrorCode;
  /** Fields the refusal carries beside its message (`status`, `nodes`, `errors`, ...). */
  readonly details: Record<string, unknown>;

  constructor(code: DomainErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "EngineError";
    this.code = code;
    this.details = details;
  }
}

export const missing = (what: string, id: unknown) =>
  new EngineError("not_found", `${what} ${JSON.stringify(id)} does not exist.`);

export const refused = (message: string, details?: Record<string, unknown>) =>
  new EngineError("conflict", message, details);
