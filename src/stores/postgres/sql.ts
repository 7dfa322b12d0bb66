// The one way this store talks to PostgreSQL: `Db.run(statement, values)`. A `Db` is either the
// read pool (reads outside transactions) or one transaction's connection (transaction.ts).
// Statements are named, so each connection parses and plans a statement once; the name comes
// from a registry keyed by the SQL text, so equal text always shares one name and different text
// never does.
import { EngineError, TASK_STATUSES, type TaskStatus } from "../../engine/index.ts";

export type Row = Record<string, any>;

export interface Statement {
  readonly name: string;
  readonly text: string;
}

export interface Db {
  run(statement: Statement, values?: readonly unknown[]): Promise<{ rows: Row[]; count: number }>;
  /**
   * A write whose answer nobody reads. In a transaction it is sent and not waited for: the
   * unit's next statements queue behind it on the connection (so they see it), and its failure
   * fails the unit when the callback ends (transaction.ts). Elsewhere it is `run`.
   */
  write(statement: Statement, values?: readonly unknown[]): Promise<void>;
}

const NUL_MESSAGE = "Text cannot contain the NUL character (\\u0000) on a PostgreSQL store.";

const hasNul = (v: unknown) => typeof v === "string" && v.includes("\0");

/**
 * `values` as a statement sends them. PostgreSQL's text cannot hold U+0000 and refuses the
 * statement, which would abort the transaction and with it the units sent behind this one
 * (transaction.ts): such a value is refused here, before anything is sent, as a validation
 * failure of the unit's own. JSON values go as JSON text, where the character is escaped.
 */
export function bound(values: readonly unknown[]): unknown[] {
  const out = new Array<unknown>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (hasNul(v) || (Array.isArray(v) && v.some(hasNul))) {
      throw new EngineError("validation", NUL_MESSAGE, {
        errors: [{ loc: ["body"], msg: NUL_MESSAGE, type: "string_nul" }],
      });
    }
    out[i] = v;
  }
  return out;
}

const names = new Map<string, string>();

/** The statement for `text`, named on first use. */
export function sql(text: string): Statement {
  let name = names.get(text);
  if (name === undefined) {
    name = `ym_${names.size + 1}`;
    names.set(text, name);
  }
  return { name, text };
}

/** The rows of a statement. */
export async function rows(db: Db, statement: Statement, values: readonly unknown[] = []) {
  return (await db.run(statement, values)).rows;
}

/** The first row of a statement, or null. */
export async function first(db: Db, statement: Statement, values: readonly unknown[] = []) {
  return (await db.run(statement, values)).rows[0] ?? null;
}

/**
 * `status IN ('a', 'b')` written into the text (only known statuses ever are), so the planner
 * can match the partial indexes whose predicates name the same statuses.
 */
export function statusIn(statuses: readonly TaskStatus[], column = "status"): string {
  if (statuses.length === 0) return "FALSE";
  for (const s of statuses) {
    if (!TASK_STATUSES.includes(s)) throw new Error(`tasks: unknown status ${String(s)}`);
  }
  return `${column} IN (${[...new Set(statuses)].map((s) => `'${s}'`).join(", ")})`;
}

/** A JSON column's parameter: the text JSON.stringify gives (`null` for undefined). */
export function json(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/** `WHERE a AND b` from the conditions given, or nothing. */
export function where(conditions: readonly string[]): string {
  return conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
}

/** One array per column, each holding that column's value of every item (unnest's input). */
export function columnArrays<T>(
  items: readonly T[],
  columns: ReadonlyArray<(item: T) => unknown>,
): unknown[][] {
  return columns.map((column) => items.map(column));
}
