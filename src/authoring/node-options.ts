import type { NodeOptions } from "./types.ts";

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

/** Problems with a `backoff` option (also the server's `[defaults] backoff`), each a sentence. */
export function backoffProblems(value: unknown): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return ["backoff must be an object such as { initial: 1, factor: 2, max: 300 }"];
  }
  const b = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(b)) {
    if (!["initial", "factor", "max", "jitter"].includes(key)) {
      problems.push(`backoff: unknown field "${key}" (known: initial, factor, max, jitter)`);
    }
  }
  const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
  if (!(finite(b.initial) && b.initial > 0)) {
    problems.push(`backoff.initial must be a positive number of seconds, got ${show(b.initial)}`);
  }
  if (b.factor !== undefined && !(finite(b.factor) && b.factor >= 1)) {
    problems.push(`backoff.factor must be a number >= 1, got ${show(b.factor)}`);
  }
  if (b.max !== undefined && !(finite(b.max) && finite(b.initial) && b.max >= b.initial)) {
    problems.push(`backoff.max must be a number of seconds >= initial, got ${show(b.max)}`);
  }
  if (b.jitter !== undefined && typeof b.jitter !== "boolean") {
    problems.push("backoff.jitter must be a boolean");
  }
  return problems;
}
