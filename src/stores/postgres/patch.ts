// Partial updates: `UPDATE <table> SET <given columns> WHERE id = $n <guard> RETURNING *`. The
// statement text depends on which fields a patch names (and the guard), so each shape gets its
// own named statement; column names come only from the table's list, never from the caller.
import { json, type Statement, sql } from "./sql.ts";

export interface PatchTable {
  table: string;
  /** Columns a patch may set. */
  columns: readonly string[];
  /** Of those, the ones holding JSON. */
  json: readonly string[];
}

/** Extra conditions; `$G1`, `$G2`, ... stand for `values` in order. */
export interface Guard {
  text: string;
  values: readonly unknown[];
}

export interface PatchQuery {
  statement: Statement;
  values: unknown[];
}

/** Refuses a field the table does not let a patch set (the key, columns the store owns). */
function check(target: PatchTable, patch: object): Array<[string, unknown]> {
  const given: Array<[string, unknown]> = [];
  for (const [name, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (!target.columns.includes(name)) {
      throw new Error(`${target.table}: field ${name} cannot be patched`);
    }
    given.push([name, target.json.includes(name) ? json(value) : value]);
  }
  return given;
}

export function patchQuery(
  target: PatchTable,
  id: unknown,
  patch: object,
  guard: Guard = { text: "", values: [] },
  returning = true,
): PatchQuery {
  const given = check(target, patch);
  const values: unknown[] = given.map(([, value]) => value);
  // An empty patch still runs, so a guard-only update tells whether the guard holds.
  const first = target.columns[0];
  const sets =
    given.length === 0
      ? `${first} = ${first}`
      : given.map(([name], i) => `${name} = $${i + 1}`).join(", ");
  values.push(id);
  const idAt = values.length;
  const conditions = guard.text.replace(/\$G(\d+)/g, (_, n) => `$${idAt + Number(n)}`);
  values.push(...guard.values);
  const answer = returning ? " RETURNING *" : "";
  const text = `UPDATE ${target.table} SET ${sets} WHERE id = $${idAt}${conditions}${answer}`;
  return { statement: sql(text), values };
}
