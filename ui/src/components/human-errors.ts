// Validation messages in words a person reads: the validators' own ("must have required property
// 'x'", "must NOT have more than 10 characters", zod's "Too big: expected string to have
// <=1000 characters") become "x is required", "must be at most 10 characters". Used for the
// console's own form checks (rjsf's ajv) and for the `errors[]` of a server's 422 `validation`.
import type { ValidationIssue } from "../api/types.ts";

const TYPES: Record<string, string> = {
  integer: "a whole number",
  number: "a number",
  string: "text",
  boolean: "yes or no",
  object: "a group of fields",
  array: "a list",
  null: "empty",
};

const FORMATS: Record<string, string> = {
  email: "an email address",
  uri: "a web address",
  url: "a web address",
  date: "a date (YYYY-MM-DD)",
  "date-time": "a date and time",
  time: "a time",
  uuid: "a UUID",
};

const plural = (n: string, one: string) => `${n} ${one}${n === "1" ? "" : "s"}`;

type Rule = [RegExp, (m: RegExpMatchArray, field: string) => string];

const RULES: Rule[] = [
  [/^must have required property '(.+)'$/, (m) => `${m[1]} is required`],
  [/^Field required$/i, (_m, field) => (field ? `${field} is required` : "is required")],
  [
    /^must NOT have more than (\d+) characters$/,
    (m) => `must be at most ${plural(m[1], "character")}`,
  ],
  [
    /^must NOT have fewer than (\d+) characters$/,
    (m) => `must be at least ${plural(m[1], "character")}`,
  ],
  [/^must NOT have more than (\d+) items$/, (m) => `must have at most ${plural(m[1], "item")}`],
  [/^must NOT have fewer than (\d+) items$/, (m) => `must have at least ${plural(m[1], "item")}`],
  [
    /^must NOT have more than (\d+) properties$/,
    (m) => `must have at most ${plural(m[1], "field")}`,
  ],
  [
    /^must NOT have fewer than (\d+) properties$/,
    (m) => `must have at least ${plural(m[1], "field")}`,
  ],
  [/^must be <= (\S+)$/, (m) => `must be at most ${m[1]}`],
  [/^must be >= (\S+)$/, (m) => `must be at least ${m[1]}`],
  [/^must be < (\S+)$/, (m) => `must be less than ${m[1]}`],
  [/^must be > (\S+)$/, (m) => `must be more than ${m[1]}`],
  [/^must be multiple of (\S+)$/, (m) => `must be a multiple of ${m[1]}`],
  [/^must be (\w+)(,\w+)*$/, (m) => `must be ${TYPES[m[1]] ?? m[1]}`],
  [/^must be equal to one of the allowed values$/, () => "must be one of the choices offered"],
  [/^must be equal to constant$/, () => "must be the one value allowed"],
  [/^must match format "(.+)"$/, (m) => `must be ${FORMATS[m[1]] ?? `a valid ${m[1]}`}`],
  [/^must match pattern ".*"$/, () => "is not in the expected form"],
  [/^must NOT have additional properties$/, () => "has a field that is not expected here"],
  [/^must NOT have duplicate items.*$/, () => "must not list the same item twice"],
  [/^must match exactly one schema in oneOf$/, () => "does not match any of the allowed shapes"],
  [/^must match a schema in anyOf$/, () => "does not match any of the allowed shapes"],
  // zod 4
  [
    /^Too big: expected string to have <=?(\d+) characters?$/,
    (m) => `must be at most ${plural(m[1], "character")}`,
  ],
  [
    /^Too small: expected string to have >=?(\d+) characters?$/,
    (m) => (m[1] === "1" ? "must not be empty" : `must be at least ${plural(m[1], "character")}`),
  ],
  [
    /^Too big: expected array to have <=?(\d+) items?$/,
    (m) => `must have at most ${plural(m[1], "item")}`,
  ],
  [
    /^Too small: expected array to have >=?(\d+) items?$/,
    (m) => `must have at least ${plural(m[1], "item")}`,
  ],
  [/^Too big: expected number to be <=(\S+)$/, (m) => `must be at most ${m[1]}`],
  [/^Too big: expected number to be <(\S+)$/, (m) => `must be less than ${m[1]}`],
  [/^Too small: expected number to be >=(\S+)$/, (m) => `must be at least ${m[1]}`],
  [/^Too small: expected number to be >(\S+)$/, (m) => `must be more than ${m[1]}`],
  [/^Invalid input: expected (\w+), received (\w+)$/, (m) => `must be ${TYPES[m[1]] ?? m[1]}`],
  [/^Invalid option: expected one of (.+)$/, (m) => `must be one of ${m[1].replaceAll("|", ", ")}`],
  [
    /^Invalid (email|url|uuid)( address)?$/i,
    (m) => `must be ${FORMATS[m[1].toLowerCase()] ?? m[1]}`,
  ],
  [/^Unrecognized keys?: (.+)$/, (m) => `has fields that are not expected here: ${m[1]}`],
];

/** A validator's message in plain words; `field` names what it is about, when known. */
export function humanMessage(msg: string, field = ""): string {
  for (const [re, say] of RULES) {
    const m = msg.match(re);
    if (m) return say(m, field);
  }
  return msg;
}

/** A location's field name as a person says it: `["body", "input", "address", 0]` → "address 1". */
export function fieldName(loc: (string | number)[]): string {
  const parts = loc.filter(
    (p, i) => !(i === 0 && ["body", "query", "path", "header"].includes(String(p))),
  );
  return parts.map((p) => (typeof p === "number" ? String(p + 1) : p)).join(" › ");
}

/** One server issue as a sentence: "title: must be at most 1000 characters", "budget is required". */
export function issueText(issue: ValidationIssue): string {
  const field = fieldName(issue.loc);
  const text = humanMessage(issue.msg, field);
  if (!field || text.startsWith(field)) return text;
  return `${field}: ${text}`;
}
