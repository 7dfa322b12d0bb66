// Row <-> record conversion. Column names equal record field names, so a small table per record
// type (columns.ts) says how each field is stored: as is, as 0/1, or as JSON text.

/** plain: TEXT/INTEGER/REAL as is; bool: INTEGER 0/1; json: TEXT holding JSON. */
export type ColumnKind = "plain" | "bool" | "json";
export type Columns<R> = { readonly [K in keyof R]-?: ColumnKind };
export type Row = Record<string, unknown>;

export interface Codec<R> {
  readonly columns: ReadonlySet<string>;
  decode(row: Row): R;
  decodeOrNull(row: Row | undefined): R | null;
  /** Encodes the given fields for named parameters; `undefined` means "not given". */
  encode(fields: Partial<R>): Row;
  /** Encodes every column for an insert; a missing field becomes NULL (JSON `null`, 0). */
  encodeAll(fields: Partial<R>): Row;
  /** Decodes only the columns present in `row` (an encoded patch, as a read would answer it). */
  decodePartial(row: Row): Partial<R>;
}

export function encodeValue(kind: ColumnKind, value: unknown): unknown {
  if (kind === "bool") return value ? 1 : 0;
  if (kind === "json") return JSON.stringify(value === undefined ? null : value);
  return value === undefined ? null : value;
}

function decodeValue(kind: ColumnKind, value: unknown): unknown {
  if (kind === "bool") return value === 1;
  if (kind === "json") return value === null ? null : JSON.parse(value as string);
  return value;
}

export function makeCodec<R>(spec: Columns<R>): Codec<R> {
  // Entries computed once: decoding runs for every row of every hot query.
  const entries = Object.entries(spec) as Array<[string, ColumnKind]>;
  // Rows come from `SELECT *` / `RETURNING *` and their columns are exactly the fields, so a
  // copy of the row with only the bool and JSON columns converted is the record; walking
  // every column through decodeValue cost twice as much on the run list.
  const converted = entries.filter(([, kind]) => kind !== "plain");
  const decode = (row: Row): R => {
    const out: Row = { ...row };
    for (const [name, kind] of converted) out[name] = decodeValue(kind, row[name]);
    return out as R;
  };
  return {
    columns: new Set(entries.map(([name]) => name)),
    decode,
    decodeOrNull: (row) => (row === undefined ? null : decode(row)),
    decodePartial(row) {
      const out: Row = {};
      for (const name of Object.keys(row))
        out[name] = decodeValue(spec[name as keyof R], row[name]);
      return out as Partial<R>;
    },
    encode(fields) {
      const out: Row = {};
      const given = fields as Row;
      for (const [name, kind] of entries) {
        if (given[name] !== undefined) out[name] = encodeValue(kind, given[name]);
      }
      return out;
    },
    encodeAll(fields) {
      const out: Row = {};
      const given = fields as Row;
      for (const [name, kind] of entries) out[name] = encodeValue(kind, given[name]);
      return out;
    },
  };
}
