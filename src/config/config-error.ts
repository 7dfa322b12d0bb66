// Configuration problems as messages a user can act on: each line names the file, the key
// path and what was found, e.g. `yardmaster.toml: pools.default.capacity: expected a positive
// integer, got "four"`.
import type { z } from "zod";

export interface ConfigProblem {
  /** Dotted key path in TOML terms (`pools.default.capacity`), or a flag (`--port`). */
  key: string;
  message: string;
}

export class ConfigError extends Error {
  /** The file as shown in messages, or null for problems not tied to a file. */
  readonly file: string | null;
  readonly problems: ConfigProblem[];

  constructor(file: string | null, problems: ConfigProblem[]) {
    const prefix = file === null ? "" : `${file}: `;
    super(problems.map((p) => `${prefix}${p.key ? `${p.key}: ` : ""}${p.message}`).join("\n"));
    this.name = "ConfigError";
    this.file = file;
    this.problems = problems;
  }
}

/** A key path as TOML would write it, quoting the parts that are not bare keys. */
export function keyPath(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((part) => {
      const s = String(part);
      return /^[A-Za-z0-9_-]+$/.test(s) ? s : JSON.stringify(s);
    })
    .join(".");
}

/** Short description of a TOML value for "got ..." (tables and arrays are not dumped). */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date) return "a date";
  if (typeof value === "object" && value !== null) return "a table";
  return JSON.stringify(value) ?? String(value);
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let node = root;
  for (const part of path) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[part];
  }
  return node;
}

/** One problem per issue; an unknown key is reported at its own path, not its table's. */
export function problemsFromIssues(issues: z.core.$ZodIssue[], input: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        problems.push({ key: keyPath([...issue.path, key]), message: issue.message });
      }
      continue;
    }
    const value = valueAt(input, issue.path);
    const message =
      value === undefined
        ? `missing required key (${issue.message})`
        : `${issue.message}, got ${describeValue(value)}`;
    problems.push({ key: keyPath(issue.path), message });
  }
  return problems;
}

/**
 * Checks values given outside the file (flags, variables) with the rules of the file's table,
 * each problem named as the user gave the value (`nameOf("port")` is `--port`).
 */
export function checkGiven(
  schema: z.ZodType,
  values: Record<string, unknown>,
  nameOf: (key: string) => string,
): ConfigProblem[] {
  const present = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  const result = schema.safeParse(present);
  if (result.success) return [];
  return problemsFromIssues(result.error.issues, present).map((p) => ({
    ...p,
    key: nameOf(p.key),
  }));
}
