import type { Backoff, FinalBackoff, NodeOptions } from "./types.ts";

const KNOWN = new Set([
  "start",
  "join",
  "retries",
  "backoff",
  "timeout",
  "priority",
  "label",
  "description",
  "name",
  "input",
]);

const BOOLEANS = ["start", "join"] as const;
const STRINGS = ["label", "description", "name"] as const;

/**
 * Problems with a node's options, each a sentence. An unknown key is a problem too: a misspelt
 * `retry: 3` silently ignored would be worse than a registration error.
 */
export function optionProblems(options: unknown): string[] {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    return ["its options must be an object such as { start: true, retries: 2 }"];
  }
  const o = options as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(o)) {
    if (!KNOWN.has(key)) {
      problems.push(`unknown option "${key}" (known: ${[...KNOWN].join(", ")})`);
    }
  }
  for (const key of BOOLEANS) {
    if (o[key] !== undefined && typeof o[key] !== "boolean")
      problems.push(`${key} must be a boolean`);
  }
  for (const key of STRINGS) {
    if (o[key] !== undefined && typeof o[key] !== "string")
      problems.push(`${key} must be a string`);
  }
  if (o.input !== undefined && o.start !== true) {
    problems.push("input declares the run's input, so it belongs on the start node only");
  }
  if (
    o.input !== undefined &&
    (o.input === null || typeof o.input !== "object" || Array.isArray(o.input))
  ) {
    problems.push("input must be a zod schema or a JSON Schema object");
  }
  problems.push(...numberProblems(o as NodeOptions));
  if (o.backoff !== undefined) problems.push(...backoffProblems(o.backoff));
  return problems;
}

const BACKOFF_KEYS = new Set(["initial", "factor", "max", "jitter"]);
const positive = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v > 0;

/** Problems with a backoff (a node's `backoff` option or the server's default), as sentences. */
export function backoffProblems(backoff: unknown): string[] {
  if (backoff === null || typeof backoff !== "object" || Array.isArray(backoff)) {
    return ["backoff must be an object such as { initial: 1, factor: 2, max: 300 }"];
  }
  const b = backoff as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(b)) {
    if (!BACKOFF_KEYS.has(key)) {
      problems.push(`backoff: unknown key "${key}" (known: ${[...BACKOFF_KEYS].join(", ")})`);
    }
  }
  if (!positive(b.initial)) {
    problems.push(`backoff.initial must be a positive number of seconds, got ${show(b.initial)}`);
  }
  if (b.factor !== undefined && !(positive(b.factor) && b.factor >= 1)) {
    problems.push(`backoff.factor must be a number of at least 1, got ${show(b.factor)}`);
  }
  if (b.max !== undefined && !(positive(b.max) && (!positive(b.initial) || b.max >= b.initial))) {
    problems.push(
      `backoff.max must be a number of seconds of at least initial, got ${show(b.max)}`,
    );
  }
  if (b.jitter !== undefined && typeof b.jitter !== "boolean") {
    problems.push("backoff.jitter must be a boolean");
  }
  return problems;
}

/** Seconds a backoff caps at when it names no `max`: an hour. */
export const DEFAULT_BACKOFF_MAX = 3600;

/** A valid backoff with its defaults filled in. */
export function finalBackoff(b: Backoff): FinalBackoff {
  return {
    initial: b.initial,
    factor: b.factor ?? 2,
    max: b.max ?? Math.max(DEFAULT_BACKOFF_MAX, b.initial),
    jitter: b.jitter ?? true,
  };
}

function numberProblems(o: NodeOptions): string[] {
  const problems: string[] = [];
  const { retries, timeout, priority } = o as Record<string, unknown>;
  if (retries !== undefined && !(Number.isSafeInteger(retries) && (retries as number) >= 0)) {
    problems.push(`retries must be a non-negative integer, got ${show(retries)}`);
  }
  if (
    timeout !== undefined &&
    !(typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0)
  ) {
    problems.push(`timeout must be a positive number of seconds, got ${show(timeout)}`);
  }
  if (priority !== undefined && !Number.isSafeInteger(priority)) {
    problems.push(`priority must be an integer, got ${show(priority)}`);
  }
  return problems;
}

function show(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}
