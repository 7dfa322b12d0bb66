import type { NodeOptions } from "./types.ts";

const KNOWN = new Set([
  "start",
  "join",
  "retries",
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
