// What `ctx.log`, `ctx.ask` and `ctx.publish` accept. They take the same values as the matching
// HTTP bodies (LogText, Ask, plugin event data) so that what a body stores is always something
// the API can serve back: a log kind outside LogKind, for one, would make the run's work log
// unreadable. A bad value is the author's bug and would be the same on every try, so it throws
// NonRetryable (the attempt dead-letters with the message) instead of being stored or dropped.
import { NonRetryable } from "../authoring/errors.ts";
import { toJson } from "../authoring/json.ts";
import type { Json, LogKind, RequestRecord } from "./domain.ts";

const LOG_KINDS: readonly LogKind[] = ["deliverable", "note", "stats", "failure"];
const REQUEST_KINDS: readonly RequestRecord["kind"][] = ["permission", "elicitation", "question"];
/**
 * The part after `plugin.<workflow>.`: no whitespace or glob characters, so the event stream's
 * `names` globs can match it (a dotted name is several segments: `plugin.wf.a.*` matches `a.b`).
 */
export const PLUGIN_EVENT_PART = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

function refuse(what: string, problem: string): never {
  throw new NonRetryable(`${what}: ${problem}`);
}

const describe = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "an array" : v === "" ? "an empty string" : typeof v;

export function checkLogInput(text: unknown, opts: { kind?: unknown } | undefined): LogKind | null {
  if (typeof text !== "string" || text.length === 0) {
    refuse("ctx.log", `text must be a non-empty string, got ${describe(text)}`);
  }
  const kind = opts?.kind ?? null;
  if (kind !== null && !LOG_KINDS.includes(kind as LogKind)) {
    refuse(
      "ctx.log",
      `kind must be one of ${LOG_KINDS.join(", ")} (or absent), got ${JSON.stringify(kind)}`,
    );
  }
  return kind as LogKind | null;
}

export function checkAskInput(opts: unknown): void {
  if (typeof opts !== "object" || opts === null)
    refuse("ctx.ask", `expects an object, got ${describe(opts)}`);
  const { prompt, options, schema, kind } = opts as Record<string, unknown>;
  if (typeof prompt !== "string" || prompt.length === 0) {
    refuse("ctx.ask", `prompt must be a non-empty string, got ${describe(prompt)}`);
  }
  if (options != null) {
    if (!Array.isArray(options))
      refuse("ctx.ask", `options must be an array, got ${describe(options)}`);
    options.forEach((o, i) => {
      const id = typeof o === "string" ? o : (o as { option_id?: unknown } | null)?.option_id;
      if (typeof id !== "string" || id.length === 0) {
        refuse(
          "ctx.ask",
          `options[${i}] must be a non-empty string or an object with a non-empty option_id`,
        );
      }
    });
  }
  if (schema != null && (typeof schema !== "object" || Array.isArray(schema))) {
    refuse("ctx.ask", `schema must be a JSON Schema object, got ${describe(schema)}`);
  }
  if (kind != null && !REQUEST_KINDS.includes(kind as RequestRecord["kind"])) {
    refuse(
      "ctx.ask",
      `kind must be one of ${REQUEST_KINDS.join(", ")} (or absent), got ${JSON.stringify(kind)}`,
    );
  }
}

/** The event's data as stored; throws for a name or data the event stream could not carry. */
export function publishData(name: unknown, data: unknown): Record<string, Json> {
  if (typeof name !== "string" || !PLUGIN_EVENT_PART.test(name)) {
    refuse("ctx.publish", `event name ${JSON.stringify(name)} must match ${PLUGIN_EVENT_PART}`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    refuse("ctx.publish", `data must be an object, got ${describe(data)}`);
  }
  try {
    return toJson(data) as Record<string, Json>;
  } catch (err) {
    refuse("ctx.publish", (err as Error).message);
  }
}
