// Many rows of one table with few statements: one multi-row INSERT per full chunk, the rest one
// row each (two statements prepared once, rather than one per batch size). The rows of one call
// go in back to back on the one writer, so an AUTOINCREMENT table hands them consecutive ids
// ending at the last rowid.
import type Database from "better-sqlite3";

const insertSql = (table: string, columns: readonly string[], rows: number) =>
  `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${Array(rows)
    .fill(`(${columns.map(() => "?").join(", ")})`)
    .join(", ")}`;

export class MultiRowInsert {
  readonly #chunk: number;
  readonly #one: Database.Statement<unknown[]>;
  readonly #many: Database.Statement<unknown[]>;

  constructor(db: Database.Database, table: string, columns: readonly string[], chunk = 100) {
    this.#chunk = chunk;
    this.#one = db.prepare<unknown[]>(insertSql(table, columns, 1));
    this.#many = db.prepare<unknown[]>(insertSql(table, columns, chunk));
  }

  /**
   * Inserts the encoded rows (each its values in the columns' order) in order; answers the
   * rowid of the last (0 for none).
   */
  run(rows: readonly (readonly unknown[])[]): number {
    let last = 0;
    let start = 0;
    for (; start + this.#chunk <= rows.length; start += this.#chunk) {
      last = this.#insert(rows, start, start + this.#chunk);
    }
    for (; start < rows.length; start++) {
      last = Number(this.#one.run(rows[start] as unknown[]).lastInsertRowid);
    }
    return last;
  }

  /** Rows `from` to `to` (one full chunk) with the multi-row statement. */
  #insert(rows: readonly (readonly unknown[])[], from: number, to: number): number {
    const params: unknown[] = [];
    for (let i = from; i < to; i++) for (const value of rows[i]!) params.push(value);
    return Number(this.#many.run(params).lastInsertRowid);
  }
}
