// The two ways a call to the server goes wrong, and how each becomes one stderr line and an
// exit code a script can branch on (docs/cli.md, "Exit codes").
import { ApiRefusal } from "../../client/api-refusal.ts";
import { EXIT_FAILED } from "../cli-io.ts";
import { EXIT_INTERRUPTED, EXIT_UNREACHABLE, Interrupted } from "./client-io.ts";

/** The server answered with a refusal `{error, code, ...extras}` (or at least a status). */
export { ApiRefusal };

/** No answer: connection refused, DNS failure, a timeout, or a stream that would not open. */
export class Unreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Unreachable";
  }
}

interface FieldIssue {
  loc?: unknown[];
  msg?: string;
}

/** "body.title: Too small" for each validation issue, so a 422 says which field was wrong. */
function issues(body: Record<string, unknown>): string {
  if (!Array.isArray(body.errors)) return "";
  const parts = (body.errors as FieldIssue[]).map((e) => {
    const where = Array.isArray(e.loc) ? e.loc.join(".") : "";
    return where ? `${where}: ${e.msg ?? ""}` : (e.msg ?? "");
  });
  return parts.length > 0 ? ` (${parts.join("; ")})` : "";
}

/** One line: the server's sentence, its field issues, then `[status code]` to grep for. */
export function refusalLine(refusal: ApiRefusal): string {
  const stage = typeof refusal.body.stage === "string" ? `, stage ${refusal.body.stage}` : "";
  return `${refusal.message}${issues(refusal.body)} [${refusal.status} ${refusal.code}${stage}]`;
}

/**
 * What a refused token means to the operator: where the client takes it from and where the server
 * keeps it. Reading the current token, not rotating it, since a rotation logs out every other tab
 * and client that holds the old one.
 */
const TOKEN_HINT =
  "give the operator token with --token T or YARDMASTER_TOKEN; the server keeps it in its " +
  "token_file (default .yardmaster/operator-token beside its configuration), or takes it from " +
  "its own YARDMASTER_TOKEN";

/** Prints `error` for command `name` and answers the exit code; rethrows what is not ours. */
export function reportClientError(error: unknown, name: string, err: (line: string) => void) {
  if (error instanceof ApiRefusal) {
    err(`yardmaster ${name}: ${refusalLine(error)}`);
    if (error.status === 401) err(`yardmaster ${name}: ${TOKEN_HINT}`);
    return error.status >= 500 ? EXIT_UNREACHABLE : EXIT_FAILED;
  }
  if (error instanceof Unreachable) {
    err(`yardmaster ${name}: ${error.message}`);
    return EXIT_UNREACHABLE;
  }
  if (error instanceof Interrupted) {
    err(`yardmaster ${name}: interrupted`);
    return EXIT_INTERRUPTED;
  }
  throw error;
}
