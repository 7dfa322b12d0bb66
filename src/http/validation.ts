// Request validation with the zod schemas, reported FastAPI-style: one ValidationError per
// problem, `loc` prefixed with where the value came from ("body", "query", "path", "header").
import type { FastifySchemaCompiler } from "fastify";
import type { z } from "zod";
import { excerpt } from "../lib/excerpt.ts";
import type { ValidationIssue } from "../service/errors.ts";

const LOC_PREFIX: Record<string, string> = {
  body: "body",
  querystring: "query",
  params: "path",
  headers: "header",
};

/** Thrown (via fastify) when a request part misfits its schema; rendered as 422 `validation`. */
export class RequestValidationError extends Error {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[]) {
    super("The request did not validate.");
    this.name = "RequestValidationError";
    this.issues = issues;
  }
}

type Issue = z.core.$ZodIssue;

/** pydantic-like `type` for a zod issue, so clients used to FastAPI find familiar values. */
function issueType(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      return `${issue.expected}_type`;
    case "too_small":
      return issue.origin === "string" ? "string_too_short" : "too_small";
    case "too_big":
      return issue.origin === "string" ? "string_too_long" : "too_big";
    case "invalid_value":
      return "enum";
    case "invalid_union":
      return "union";
    case "custom":
      return "value_error";
    default:
      return issue.code;
  }
}

function toValidationIssue(prefix: string, issue: Issue, absent: boolean): ValidationIssue {
  // fastify hands an absent body over as null; report it as FastAPI does, a missing body.
  const bodyMissing = absent && issue.path.length === 0;
  // JSON cannot carry undefined, so an undefined input (reported with reportInput) is absent.
  const missing = bodyMissing || (issue.code === "invalid_type" && issue.input === undefined);
  return {
    loc: [prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
    // zod's messages may quote the input (a literal, a pattern): never more than an excerpt.
    msg: missing ? "Field required" : excerpt(issue.message),
    type: missing ? "missing" : issueType(issue),
  };
}

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const prefix = LOC_PREFIX[httpPart ?? "body"] ?? "body";
  return (data) => {
    const result = schema.safeParse(data, { reportInput: true });
    if (result.success) return { value: result.data };
    const absent = data === null || data === undefined;
    const issues = result.error.issues.map((i) => toValidationIssue(prefix, i, absent));
    return { error: new RequestValidationError(issues) };
  };
};
