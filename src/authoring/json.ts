import type { Json } from "../lib/json.ts";
import { NonRetryable } from "./errors.ts";

/**
 * Converts a value leaving a node to JSON exactly as `JSON.stringify` would see it (`toJSON`
 * honoured, class instances become their own enumerable fields, functions and symbols dropped
 * from objects), except that `undefined` at the top level becomes `null`. Written out instead of
 * a stringify/parse round trip so that a failure can say *where* the bad value sits.
 * A BigInt or a cycle throws NonRetryable: retrying the attempt would produce the same value.
 */
export function toJson(value: unknown): Json {
  return convert(value, "", "$", []) ?? null;
}

function convert(value: unknown, key: string, path: string, ancestors: object[]): Json | undefined {
  let v = value;
  if ((typeof v === "object" && v !== null) || typeof v === "bigint") {
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") v = toJSON.call(v, key);
  }
  if (v instanceof Number || v instanceof String || v instanceof Boolean) v = v.valueOf();
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      return Number.isFinite(v) ? (Object.is(v, -0) ? 0 : v) : null;
    case "bigint":
      throw new NonRetryable(
        `cannot convert ${path} to JSON: BigInt ${v}n has no JSON form (convert it to a string or a number)`,
      );
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
  }
  if (v === null) return null;
  return convertObject(v as object, path, ancestors);
}

function convertObject(obj: object, path: string, ancestors: object[]): Json {
  const seenAt = ancestors.indexOf(obj);
  if (seenAt !== -1) {
    throw new NonRetryable(
      `cannot convert ${path} to JSON: it is a cycle (the value refers back to an enclosing object)`,
    );
  }
  ancestors.push(obj);
  try {
    if (Array.isArray(obj)) {
      return obj.map((item, i) => convert(item, String(i), `${path}[${i}]`, ancestors) ?? null);
    }
    const out: { [key: string]: Json } = {};
    for (const k of Object.keys(obj)) {
      const item = convert((obj as Record<string, unknown>)[k], k, `${path}.${k}`, ancestors);
      if (item !== undefined) out[k] = item;
    }
    return out;
  } finally {
    ancestors.pop();
  }
}
