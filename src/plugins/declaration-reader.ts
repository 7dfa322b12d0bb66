// Reads one raw plugin declaration field by field, collecting every problem as a sentence that
// names the declaration, so a registration refused at stage "plugins" lists all of them at once.

/** Action and panel names are URL path segments and event-name parts. */
export const PLUGIN_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

const show = (value: unknown): string => {
  if (typeof value === "function") return "a function";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

export class DeclarationReader {
  readonly #decl: Record<string, unknown>;
  readonly #problems: string[];
  /** How problems name the declaration, e.g. `panel "summary"`. */
  readonly who: string;

  constructor(
    decl: Record<string, unknown>,
    who: string,
    known: readonly string[],
    problems: string[],
  ) {
    this.#decl = decl;
    this.who = who;
    this.#problems = problems;
    for (const key of Object.keys(decl)) {
      if (!known.includes(key))
        this.problem(`unknown option "${key}" (known: ${known.join(", ")})`);
    }
  }

  problem(message: string): void {
    this.#problems.push(`${this.who}: ${message}`);
  }

  has(key: string): boolean {
    return this.#decl[key] !== undefined;
  }

  raw(key: string): unknown {
    return this.#decl[key];
  }

  /** A non-empty string; null (after a problem) when absent or of another type. */
  text(key: string, required = true): string | null {
    const value = this.#decl[key];
    if (value === undefined || value === null) {
      if (required) this.problem(`"${key}" is required`);
      return null;
    }
    if (typeof value !== "string" || value === "") {
      this.problem(`"${key}" must be a non-empty string, got ${show(value)}`);
      return null;
    }
    return value;
  }

  oneOf<T extends string>(key: string, values: readonly T[]): T | null {
    const value = this.#decl[key];
    if (value === undefined) {
      this.problem(`"${key}" is required (one of ${values.join(", ")})`);
      return null;
    }
    if (!values.includes(value as T)) {
      this.problem(`"${key}" must be one of ${values.join(", ")}, got ${show(value)}`);
      return null;
    }
    return value as T;
  }

  bool(key: string, fallback: boolean): boolean {
    const value = this.#decl[key];
    if (value === undefined) return fallback;
    if (typeof value !== "boolean") this.problem(`"${key}" must be true or false`);
    return value === true;
  }

  fn<F>(key: string, required: boolean): F | null {
    const value = this.#decl[key];
    if (value === undefined) {
      if (required) this.problem(`"${key}" is required (a function)`);
      return null;
    }
    if (typeof value !== "function") {
      this.problem(`"${key}" must be a function, got ${show(value)}`);
      return null;
    }
    return value as F;
  }

  stringList(key: string): string[] {
    const value = this.#decl[key];
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || v === "")) {
      this.problem(`"${key}" must be an array of non-empty strings, got ${show(value)}`);
      return [];
    }
    return [...value];
  }

  /** Options that make no sense for this kind are refused rather than silently ignored. */
  absent(keys: readonly string[], why: string): void {
    for (const key of keys) if (this.has(key)) this.problem(`"${key}" is not allowed ${why}`);
  }
}

/** The declaration's name, checked; `who` falls back to its position when it has none. */
export function declarationName(
  decl: Record<string, unknown>,
  kind: "action" | "panel",
  index: number,
): { who: string; name: string | null; problem: string | null } {
  const name = decl.name;
  if (typeof name === "string" && PLUGIN_NAME.test(name)) {
    return { who: `${kind} "${name}"`, name, problem: null };
  }
  const who = `${kind} #${index + 1}`;
  const problem =
    typeof name !== "string" || name === ""
      ? `${who} needs a non-empty string "name"`
      : `${who}: "name" must match ${PLUGIN_NAME} (it is a URL segment), got ${show(name)}`;
  return { who, name: null, problem };
}
