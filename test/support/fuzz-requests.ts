// Requests for the OpenAPI fuzz test: one arbitrary per operation of /openapi.json, built from its
// path and query parameter schemas, its security schemes (the operator bearer token, the task
// token header, the event stream's access_token) and its request body schema.
import fc from "fast-check";
import { hostileString, malformedBody, RawSegment, starGlobs, toJsonText } from "./fuzz-hostile.ts";
import { type JsonSchema, paramTextFor, type SchemaContext, valueFor } from "./fuzz-schema.ts";

export interface Param {
  name: string;
  in: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  path: string;
  params: Param[];
  body?: JsonSchema;
  /** Names of the security schemes the operation accepts (`bearer`, `taskToken`, ...). */
  security: string[];
}

export interface Credentials {
  operator: string;
  /** The live agent's task token. */
  task: string;
  /** Tokens of attempts that ended: they must be refused like any unknown token. */
  stale: string[];
}

export interface FuzzRequest {
  method: string;
  /** Path and query string, percent-encoded as sent. */
  target: string;
  headers: Record<string, string>;
  body?: string;
}

export function operationsOf(spec: any): Operation[] {
  return Object.entries(spec.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      params: (op.parameters ?? []) as Param[],
      body: op.requestBody?.content?.["application/json"]?.schema,
      security: (op.security ?? []).flatMap((s: object) => Object.keys(s)),
    })),
  );
}

// WTF-8 bytes of one UTF-16 code unit that has no pair: what a lenient client would send.
const loneUnitBytes = (unit: number) =>
  [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
    .map((b) => `%${b.toString(16).toUpperCase()}`)
    .join("");

/** Percent-encodes text for a URL, lone surrogates included (encodeURIComponent throws on them). */
export function encodeText(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text]
      .map((ch) =>
        ch.length === 1 && /[\uD800-\uDFFF]/.test(ch)
          ? loneUnitBytes(ch.charCodeAt(0))
          : encodeURIComponent(ch),
      )
      .join("");
  }
}

// Past the server's 16 KiB limit on a request head, but not so far past that the server hangs up
// before the client has written it all (the client would then see a reset, not the answer).
const HEAD_TEXT_MAX = 24_000;

const hugeHeader = fc.integer({ min: 1, max: HEAD_TEXT_MAX }).map((n) => "a".repeat(n));

// Any byte but CR and LF (which would start another header line); those fetch refuses go over a
// plain socket (fuzz-send.ts).
const headerText = fc
  .string({ unit: "binary-ascii", maxLength: 40 })
  .map((s) => s.replace(/[\r\n]/g, ""));

/** A URL carries a few values; each is cut to a third of that, never inside a `%XX` escape. */
const capped = (encoded: string) =>
  encoded.slice(0, HEAD_TEXT_MAX / 3).replace(/%[0-9A-Fa-f]?$/, "");

const rawSegments = fc
  .constantFrom(
    "%",
    "%zz",
    "%C0%AE",
    "%00",
    "%ED%A0%80",
    "..",
    ".",
    "%2F",
    "a%2Fb",
    "%FF",
    "a b",
    "\x7F",
    "\u00E9",
    "%u0041",
  )
  .map((t) => new RawSegment(t));

function segmentFor(p: Param, ctx: SchemaContext): fc.Arbitrary<string> {
  return fc
    .oneof({ weight: 9, arbitrary: paramTextFor(p.schema, ctx, p.name) }, rawSegments)
    .map((v) => (v instanceof RawSegment ? v.text : capped(encodeText(v))));
}

function queryFor(params: Param[], ctx: SchemaContext): fc.Arbitrary<string[]> {
  const pairs = params.map((p) => {
    const text =
      p.name === "names"
        ? fc.oneof(starGlobs, paramTextFor(p.schema, ctx, p.name))
        : paramTextFor(p.schema, ctx, p.name);
    // Now and then the parameter comes twice, which a single-valued schema must refuse.
    const values = fc.oneof(
      { withCrossShrink: true },
      { weight: 6, arbitrary: text.map((t) => [t]) },
      fc.array(text, { minLength: 2, maxLength: 3 }),
    );
    return fc.option(
      values.map((vs) => vs.map((v) => `${p.name}=${capped(encodeText(v))}`)),
      { freq: 3 },
    );
  });
  return fc.tuple(...pairs).map((all) => all.flatMap((vs) => vs ?? []));
}

function bearerHeader(creds: Credentials): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 8, arbitrary: fc.constant(`Bearer ${creds.operator}`) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom(
          "Bearer wrong",
          "Bearer ",
          "Basic Zm9vOmJhcg==",
          `Bearer ${creds.operator}x`,
        ),
        headerText.map((t) => `Bearer ${t}`),
        hugeHeader.map((t) => `Bearer ${t}`),
      ),
    },
  );
}

function taskTokenHeader(creds: Credentials): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 8, arbitrary: fc.constant(creds.task) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.oneof(fc.constantFrom("", "wrong", ...creds.stale), headerText, hugeHeader),
    },
  );
}

const contentType = fc.oneof(
  { withCrossShrink: true },
  { weight: 10, arbitrary: fc.constant("application/json") },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "text/plain",
      "application/merge-patch+json",
      "application/x-www-form-urlencoded",
      "application/json; charset=latin1",
      "multipart/form-data; boundary=x",
    ),
  },
);

/** JSON-RPC messages for the MCP endpoint, whose published body schema is "anything". */
function jsonRpcFor(ctx: SchemaContext): fc.Arbitrary<unknown> {
  const args = valueFor(
    {
      type: "object",
      properties: {
        text: { type: "string" },
        prompt: { type: "string" },
        result: {},
        request_id: { type: "integer" },
      },
    },
    ctx,
  );
  const method = fc.constantFrom("initialize", "tools/list", "tools/call", "ping", "nope");
  const tool = fc.constantFrom(
    "get_task",
    "append_log",
    "submit_result",
    "ask_operator",
    "wait_answer",
    "nope",
  );
  return fc.record(
    {
      jsonrpc: fc.constantFrom("2.0", "1.0"),
      id: fc.oneof(fc.nat(), fc.string(), fc.constant(null)),
      method,
      params: fc.record({ name: tool, arguments: args }, { requiredKeys: [] }),
    },
    { requiredKeys: ["method"] },
  );
}

function bodyFor(op: Operation, ctx: SchemaContext): fc.Arbitrary<string | undefined> {
  const shaped =
    op.path === "/mcp/agent" ? jsonRpcFor(ctx) : op.body ? valueFor(op.body, ctx) : undefined;
  if (!shaped) {
    // A bodiless POST still gets a body now and then: it must be ignored or refused, never crash.
    return fc.oneof(
      { withCrossShrink: true },
      { weight: 6, arbitrary: fc.constant(undefined) },
      malformedBody,
      valueFor({}, ctx).map(toJsonText),
    );
  }
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 10, arbitrary: shaped.map(toJsonText) },
    { weight: 1, arbitrary: malformedBody },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The arbitrary of whole requests for `op`: path, query, headers and body together. */
export function requestFor(
  op: Operation,
  ctx: SchemaContext,
  creds: Credentials,
): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.params.filter((p) => p.in === "path");
  const query = op.params.filter((p) => p.in === "query");
  const accessToken = op.security.includes("accessToken")
    ? fc
        .option(fc.oneof(fc.constant(creds.operator), hostileString), { freq: 3 })
        .map((t) => (t === null ? [] : [`access_token=${capped(encodeText(t))}`]))
    : fc.constant([]);
  const origin = STATE_CHANGING.has(op.method)
    ? fc.oneof(
        { withCrossShrink: true },
        { weight: 10, arbitrary: fc.constant(null) },
        fc.constantFrom("http://evil.example", "null", "http://127.0.0.1:1"),
      )
    : fc.constant(null);
  return fc
    .record({
      segments: fc.tuple(...pathParams.map((p) => segmentFor(p, ctx))),
      query: queryFor(query, ctx),
      accessToken,
      bearer: op.security.includes("taskToken") ? fc.constant(undefined) : bearerHeader(creds),
      task: op.security.includes("taskToken") ? taskTokenHeader(creds) : fc.constant(undefined),
      origin,
      body: STATE_CHANGING.has(op.method) ? bodyFor(op, ctx) : fc.constant(undefined),
      contentType,
    })
    .map((r) => {
      let i = 0;
      const path = op.path.replace(/\{\w+\}/g, () => r.segments[i++]);
      const query = [...r.query, ...r.accessToken];
      const headers: Record<string, string> = {};
      if (r.bearer !== undefined) headers.authorization = r.bearer;
      if (r.task !== undefined) headers["x-service-token"] = r.task;
      if (r.origin !== null) headers.origin = r.origin;
      if (r.body !== undefined && r.contentType !== undefined)
        headers["content-type"] = r.contentType;
      // A head over the server's limit is refused before the body is read; with a large body
      // still coming the client sees the connection reset instead of the answer.
      const target = query.length ? `${path}?${query.join("&")}` : path;
      const head = target.length + Object.values(headers).join("").length;
      const body = head > 16_000 && (r.body?.length ?? 0) > 16_000 ? undefined : r.body;
      return { method: op.method, target, headers, body };
    });
}
