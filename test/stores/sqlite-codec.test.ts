// The SQLite row codec: generated converters must answer what the column table says, for every
// kind, and must refuse a column name that is not a plain identifier (it becomes code).
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { makeCodec } from "../../src/stores/sqlite/codec.ts";
import { RecordQuery } from "../../src/stores/sqlite/record-query.ts";

interface Sample {
  id: number;
  flag: boolean;
  doc: unknown;
  note: string | null;
}

const codec = makeCodec<Sample>({ id: "plain", flag: "bool", doc: "json", note: "plain" });

describe("sqlite row codec", () => {
  it("decodes every kind and answers the fields in column order", () => {
    const record = codec.decode({ note: null, doc: '{"a":[1,2]}', flag: 1, id: 7 });
    expect(record).toEqual({ id: 7, flag: true, doc: { a: [1, 2] }, note: null });
    expect(Object.keys(record)).toEqual(["id", "flag", "doc", "note"]);
    expect(codec.decode({ id: 1, flag: 0, doc: null, note: "x" })).toEqual({
      id: 1,
      flag: false,
      doc: null,
      note: "x",
    });
  });

  it("encodes all columns for an insert, and only the given ones for a patch", () => {
    expect(codec.encodeAll({ id: 3, flag: true, doc: { b: 1 } })).toEqual({
      id: 3,
      flag: 1,
      doc: '{"b":1}',
      note: null,
    });
    expect(codec.encodeAll({})).toEqual({ id: null, flag: 0, doc: "null", note: null });
    expect(codec.encode({ flag: false, doc: null })).toEqual({ flag: 0, doc: "null" });
    expect(codec.encode({ note: "n", id: undefined })).toEqual({ note: "n" });
  });

  it("binds an insert's columns by position and builds the stored record from the values", () => {
    const insertion = codec.insertion(["flag", "doc", "note"], "id");
    const values = insertion.encode({ flag: true, doc: { b: [1] } });
    expect(values).toEqual([1, '{"b":[1]}', null]);
    const record = insertion.stored(values, 7, {});
    expect(record).toEqual({ id: 7, flag: true, doc: { b: [1] }, note: null });
    expect(Object.keys(record)).toEqual(["id", "flag", "doc", "note"]);
    expect(insertion.stored([0, "null", "n"], 8, {})).toEqual({
      id: 8,
      flag: false,
      doc: null,
      note: "n",
    });
    expect(() => codec.insertion(["nope"], "id")).toThrow(/not a column/);
  });

  it("binds a patch's columns by position and lays the decoded values over the known record", () => {
    const patching = codec.patching(["doc", "flag"]);
    const values = patching.encode({ doc: [2], flag: false });
    expect(values).toEqual(["[2]", 0]);
    const known = { id: 1, flag: true, doc: null, note: "a" };
    expect(patching.over(known, values)).toEqual({ id: 1, flag: false, doc: [2], note: "a" });
    expect(known).toEqual({ id: 1, flag: true, doc: null, note: "a" });
  });

  it("refuses a column name that is not an identifier", () => {
    expect(() => makeCodec<Record<string, unknown>>({ "a; process.exit()": "plain" })).toThrow(
      /not an identifier/,
    );
  });

  it("reads whole records as arrays, and refuses a statement whose columns are not the record's", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE sample (id INTEGER, flag INTEGER, doc TEXT, note TEXT)");
    db.exec(`INSERT INTO sample VALUES (1, 1, '{"k":2}', 'a'), (2, 0, 'null', NULL)`);
    const query = new RecordQuery(db, "SELECT * FROM sample ORDER BY id", codec);
    expect(query.all()).toEqual([
      { id: 1, flag: true, doc: { k: 2 }, note: "a" },
      { id: 2, flag: false, doc: null, note: null },
    ]);
    const one = new RecordQuery(db, "SELECT * FROM sample WHERE id = ?", codec);
    expect(one.get(2)).toEqual({ id: 2, flag: false, doc: null, note: null });
    expect(one.get(3)).toBeNull();
    expect(() => new RecordQuery(db, "SELECT id, doc, flag, note FROM sample", codec)).toThrow(
      /are not the record's/,
    );
    db.close();
  });
});
