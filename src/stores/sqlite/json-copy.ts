// What a read would decode from a JSON column, without parsing the text just written: an insert
// answers its record "as stored", and `JSON.parse(JSON.stringify(value))` is that value only when
// it is plain JSON. `jsonCopy(value, text)` copies a plain JSON value (a fifth of a parse's cost
// on the small payloads and event data of a submit) and parses `text`, the value's own
// JSON.stringify, whenever anything in it would not survive the trip as is: undefined, a
// function, a symbol or bigint, a non-finite number or -0, a class instance (a Date, a Map), a
// `toJSON`, a `__proto__` key, or nesting deeper than a copy should recurse.

const NOT_PLAIN = Symbol("not plain JSON");
const MAX_DEPTH = 32;

function copy(value: unknown, depth: number): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    return Number.isFinite(value) && !Object.is(value, -0) ? value : NOT_PLAIN;
  }
  if (typeof value !== "object" || depth > MAX_DEPTH) return NOT_PLAIN;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = copy(value[i], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      out[i] = item;
    }
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const record = value as Record<string, unknown>;
  if (typeof record.toJSON === "function") return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    if (key === "__proto__") return NOT_PLAIN;
    const item = copy(record[key], depth + 1);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    out[key] = item;
  }
  return out;
}

/** `JSON.parse(text)`, where `text` is `JSON.stringify(value)`, by a copy when that is the same. */
export function jsonCopy(value: unknown, text: string): unknown {
  const copied = copy(value, 0);
  return copied === NOT_PLAIN ? JSON.parse(text) : copied;
}
