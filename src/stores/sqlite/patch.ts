// Partial updates. A patch names a different set of columns each time, so the UPDATE text is
// built per shape, prepared on first use and cached: the engine uses a handful of shapes, each
// prepared once. Column names come only from the codec, never from the caller.
import type Database from "better-sqlite3";
import type { Codec, Row } from "./codec.ts";

export interface PatchTarget<R> {
  table: string;
  codec: Codec<R>;
  /** Fields a patch may never touch (the key and columns the store owns). */
  fixed: readonly string[];
}

export class PatchStatements<R> {
  readonly #db: Database.Database;
  readonly #target: PatchTarget<R>;
  readonly #cache = new Map<string, Database.Statement>();

  constructor(db: Database.Database, target: PatchTarget<R>) {
    this.#db = db;
    this.#target = target;
  }

  /**
   * Runs `UPDATE table SET <patched columns> WHERE id = @key_id <extra> RETURNING *`.
   * `extra` is a fixed SQL fragment whose parameters are in `whereParams` (names must not be
   * column names; use a `guard_` prefix). Answers the updated row or undefined.
   */
  run(id: unknown, patch: object, extra: string, whereParams: Row): Row | undefined {
    this.#rejectUnknown(patch);
    const values = this.#target.codec.encode(patch as Partial<R>);
    const columns = Object.keys(values);
    const key = `${columns.join(",")}|${extra}`;
    let statement = this.#cache.get(key);
    if (statement === undefined) {
      statement = this.#db.prepare(this.#sql(columns, extra));
      this.#cache.set(key, statement);
    }
    return statement.get({ ...values, ...whereParams, key_id: id }) as Row | undefined;
  }

  #sql(columns: readonly string[], extra: string): string {
    // An empty patch still runs, so a guard-only update reports whether the guard holds.
    const sets = columns.length === 0 ? "id = id" : columns.map((c) => `${c} = @${c}`).join(", ");
    return `UPDATE ${this.#target.table} SET ${sets} WHERE id = @key_id${extra} RETURNING *`;
  }

  #rejectUnknown(patch: object): void {
    const { codec, fixed, table } = this.#target;
    for (const [name, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      if (!codec.columns.has(name) || fixed.includes(name)) {
        throw new Error(`${table}: field ${name} cannot be patched`);
      }
    }
  }
}
