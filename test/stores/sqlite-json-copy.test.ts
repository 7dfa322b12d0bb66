import { describe, expect, it } from "vitest";
import { jsonCopy } from "../../src/stores/sqlite/json-copy.ts";

// jsonCopy(value, JSON.stringify(value)) must always equal JSON.parse of that text.
const roundTrip = (value: unknown) => {
  const text = JSON.stringify(value);
  return { copied: jsonCopy(value, text), parsed: JSON.parse(text) };
};

describe("jsonCopy", () => {
  it("copies plain JSON: equal to the parsed text, sharing no object with the value", () => {
    const value = { a: 1, b: "x", c: [true, null, { d: 2.5 }], e: {}, "2": 0, "1": [] };
    const { copied, parsed } = roundTrip(value);
    expect(copied).toStrictEqual(parsed);
    expect(Object.keys(copied as object)).toEqual(Object.keys(parsed));
    expect(copied).not.toBe(value);
    expect((copied as typeof value).c).not.toBe(value.c);
    expect((copied as typeof value).c[2]).not.toBe(value.c[2]);
    for (const scalar of [null, 0, "s", false, 1e21]) {
      expect(roundTrip(scalar).copied).toStrictEqual(roundTrip(scalar).parsed);
    }
  });

  it("answers what the text decodes to whenever the value would not survive JSON as is", () => {
    class Point {
      x = 1;
    }
    const cases: unknown[] = [
      { a: undefined, b: 1 },
      [1, undefined, () => 0],
      { n: Number.NaN, i: Number.POSITIVE_INFINITY, z: -0 },
      -0,
      { at: new Date(0) },
      { m: new Map([[1, 2]]) },
      new Point(),
      { t: { toJSON: () => "t" } },
      JSON.parse('{"__proto__": {"x": 1}}'),
      Object.assign(Object.create(null), { a: [1] }),
      // biome-ignore lint/suspicious/noSparseArray: a hole is what it checks
      [1, , 3],
    ];
    for (const value of cases) {
      const { copied, parsed } = roundTrip(value);
      expect(copied).toStrictEqual(parsed);
    }
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(roundTrip(deep).copied).toStrictEqual(roundTrip(deep).parsed);
  });
});
