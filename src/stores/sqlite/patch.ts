// Partial updates. A patch names a different set of columns each time, so the UPDATE text is
// built per shape, prepared on first use and cached: the engine uses a handful of shapes, each
// prepared once. Column names come only from the codec, never from the caller.
import type Database from "better-sqlite3";
import type { Codec, Row } from "./codec.ts";
import { RecordQuery } from "./record-query.ts";

export interface PatchTarget<R> {
  table: string;
  codec: Codec<R>;
  /** Fields a patch may never touch (the key and columns the store owns). */
  fixed: readonly string[];
}

interface PatchShape<R> extends ReturnType<Codec<R>["patching"]> {
  statement: Database.Statement;
  /** Whether `extra` has named parameters (bound from `whereParams`). */
  named: boolean;
}

export class PatchStatements<R> {
  readonly #db: Database.Database;
  readonly #target: PatchTarget<R>;
  readonly #returning = new Map<string, RecordQuery<R>>();
  readonly #shapes = new Map<string, PatchShape<R>>();

  constructor(db: Database.Database, target: PatchTarget<R>) {
    this.#db = db;
    this.#target = target;
  }

  /**
   * Runs `UPDATE table SET <patched columns> WHERE id = @key_id <extra> RETURNING *`.
   * `extra` is a fixed SQL fragment whose parameters are in `whereParams` (names must not be
   * column names; use a `guard_` prefix). Answers the updated record or null.
   */
  run(id: unknown, patch: object, extra: string, whereParams: Row): R | null {
    const values = this.#encode(patch);
    const key = `${Object.keys(values).join(",")}|${extra}`;
    let query = this.#returning.get(key);
    if (query === undefined) {
      query = new RecordQuery(
        this.#db,
        this.#sql(Object.keys(values), extra, " RETURNING *"),
        this.#target.codec,
      );
      this.#returning.set(key, query);
    }
    return query.get({ ...values, ...whereParams, key_id: id });
  }

  /**
   * The same UPDATE without reading the row back, for a caller that already holds the row
   * (`known`): answers the record after it, or null when no row matched. Each shape (the
   * patch's defined fields and `extra`) is checked, prepared and compiled once: its values go
   * in as positional parameters and the record is built from them (codec.ts `patching`).
   */
  over(id: unknown, patch: object, extra: string, whereParams: Row, known: R): R | null {
    let key = extra;
    for (const name in patch) {
      if ((patch as Row)[name] !== undefined) key += `|${name}`;
    }
    let shape = this.#shapes.get(key);
    if (shape === undefined) {
      shape = this.#shape(patch, extra);
      this.#shapes.set(key, shape);
    }
    const values = shape.encode(patch as Partial<R>);
    values.push(id);
    const { changes } = shape.named
      ? shape.statement.run(values, whereParams)
      : shape.statement.run(values);
    return changes === 1 ? shape.over(known, values) : null;
  }

  #shape(patch: object, extra: string): PatchShape<R> {
    this.#rejectUnknown(patch);
    const columns = Object.keys(patch).filter((name) => (patch as Row)[name] !== undefined);
    const sets = columns.length === 0 ? "id = id" : columns.map((c) => `${c} = ?`).join(", ");
    const sql = `UPDATE ${this.#target.table} SET ${sets} WHERE id = ?${extra}`;
    return {
      ...this.#target.codec.patching(columns),
      statement: this.#db.prepare(sql),
      named: extra.includes("@"),
    };
  }

  #encode(patch: object): Row {
    this.#rejectUnknown(patch);
    return this.#target.codec.encode(patch as Partial<R>);
  }

  #sql(columns: readonly string[], extra: string, returning: string): string {
    // An empty patch still runs, so a guard-only update reports whether the guard holds.
    const sets = columns.length === 0 ? "id = id" : columns.map((c) => `${c} = @${c}`).join(", ");
    return `UPDATE ${this.#target.table} SET ${sets} WHERE id = @key_id${extra}${returning}`;
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
