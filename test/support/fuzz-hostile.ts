// Hostile and boundary values for the OpenAPI fuzz test: what an attacker or a broken client
// sends instead of what the schema asks for. Sizes and depths are drawn as integers and mapped to
// text, so fast-check shrinks a failure down to the smallest size that still fails.
import fc from "fast-check";

/** JSON text spliced verbatim into a body where a value goes (deep nesting, huge numbers). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A path segment sent exactly as written, not percent-encoded (bad escapes, dot segments). */
export class RawSegment {
  constructor(readonly text: string) {}
}

// Near the default body limit (1 MiB) on both sides, and a middle size well inside it.
const sizes = fc.oneof(
  fc.integer({ min: 1, max: 70_000 }),
  fc.integer({ min: 1_040_000, max: 1_100_000 }),
);

export const hugeString = sizes.map((n) => "x".repeat(n));

/** Unpaired UTF-16 halves: JSON carries them as `\ud800` escapes, UTF-8 cannot carry them. */
export const loneSurrogates = fc.oneof(
  fc.constantFrom("\uD800", "\uDFFF", "a\uD83D", "\uDC00b", "\uD800\uD800"),
  fc.string({ unit: fc.constantFrom("\uD800", "\uDC00", "a", ".", ":"), minLength: 1 }),
);

export const oddUnicode = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\u202Eevil",
    "\u200B",
    "\uFEFFbom",
    "e\u0301",
    "\u{1D54F}",
    "\uFF21",
    "\u0130",
    "\u2028\u2029",
    "\u{1F3F3}\uFE0F\u200D\u{1F308}",
    "\r\n",
    "\t",
    " ",
  ),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }),
  fc.string({ unit: "binary", minLength: 1, maxLength: 12 }),
);

/** Event-name globs that a backtracking matcher chokes on: runs of `*` against one segment. */
export const starGlobs = fc.oneof(
  fc.integer({ min: 1, max: 200 }).map((n) => "*".repeat(n)),
  fc.integer({ min: 1, max: 200 }).map((n) => `${"*".repeat(n)}x`),
  fc.integer({ min: 1, max: 30 }).map((n) => `task.${"*a".repeat(n)}!`),
  fc.integer({ min: 1, max: 40 }).map((n) => Array(n).fill("*").join(".")),
  fc.constantFrom("run.*", "plugin.*.*", "*", "*.*", ",", ",,,", "run.*,task.*"),
);

export const regexLike = fc.constantFrom(
  "(a+)+$",
  "^(a|a)*$",
  "(.*a){20}",
  "([a-zA-Z]+)*!",
  "[",
  "\\",
  "a{1,100000}",
  "(?<x>",
  ".*.*.*.*.*.*=",
  "\\p{L}+",
  "$(whoami)",
  "'; DROP TABLE runs; --",
  "../../../../etc/passwd",
  "%s%s%n",
  "{{7*7}}",
);

/** Text a backtracking pattern such as `^(a+)+$` takes exponential time to refuse. */
export const backtrackingBait = fc.integer({ min: 1, max: 64 }).map((n) => `${"a".repeat(n)}!`);

/** Object keys that are special to JavaScript or to a naive merge. */
export const trickyKeys = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "",
  "a.b",
  "$ref",
);

export const hostileString = fc.oneof(
  hugeString,
  loneSurrogates,
  oddUnicode,
  starGlobs,
  regexLike,
  backtrackingBait,
  trickyKeys,
);

/** Arrays or objects nested `depth` deep, as text: a recursive parser or walker overflows. */
export const deepNesting = fc
  .tuple(fc.integer({ min: 1, max: 20_000 }), fc.boolean())
  .map(([depth, objects]) =>
    objects
      ? new RawJson(`${'{"a":'.repeat(depth)}0${"}".repeat(depth)}`)
      : new RawJson(`${"[".repeat(depth)}${"]".repeat(depth)}`),
  );

/** Numbers at and past the edges of safe integers and doubles, some only writable as text. */
export const edgeNumbers = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, -(2 ** 53), 1e21, 5e-324),
  fc
    .constantFrom("1e400", "-1e400", "123456789012345678901234567890", "1.0e+3")
    .map((t) => new RawJson(t)),
);

/** A value of any JSON type: the wrong type for most fields. */
export const anyJson = fc.jsonValue({ maxDepth: 3 });

export const hostileValue = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: deepNesting },
  { weight: 1, arbitrary: edgeNumbers },
  { weight: 2, arbitrary: anyJson },
);

/** Bodies that are not JSON at all, or JSON a careful parser must refuse. */
export const malformedBody = fc.oneof(
  fc.constantFrom(
    "{not json",
    '{"title": "a",}',
    "\uFEFF{}",
    "NaN",
    '{"__proto__": {"polluted": true}}',
    '{"constructor": {"prototype": {"polluted": true}}}',
    '{"title": "a", "title": 5}',
    "[",
    "\u0000",
    "null",
    '"just a string"',
  ),
  fc.string({ unit: "binary-ascii", minLength: 1, maxLength: 40 }),
  deepNesting.map((raw) => raw.text),
);

/** Serializes a generated value; `RawJson` is spliced as it is, every key kept as an own key. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.keys(value).map(
      (k) => `${JSON.stringify(k)}:${toJsonText((value as Record<string, unknown>)[k])}`,
    );
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Adds `key` as an own enumerable member, even `__proto__`, which plain assignment would not. */
export function withMember(target: object, key: string, value: unknown): object {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return target;
}
