import {
  type Comment,
  type Function as FunctionNode,
  type Node,
  type ObjectPattern,
  type Pattern,
  parse,
} from "acorn";

/** What a node function's parameter list declares. */
export interface Signature {
  edges: string[];
  hasPayload: boolean;
  hasCtx: boolean;
  /** A `/** ... *\/` comment that is the first thing inside the body, if any. */
  bodyDoc: string | null;
}

/** Either the signature or a sentence saying what is wrong and what to write instead. */
export type SignatureResult = { ok: true; signature: Signature } | { ok: false; problem: string };

const EXAMPLE = "async function name({ next }, payload, ctx) { ... }";

/**
 * Reads edges and slots from `fn.toString()` with a real parser, so comments, defaults and
 * line breaks cannot confuse it. Code arriving through tsx has its types stripped already.
 */
export function readSignature(fn: Function): SignatureResult {
  const parsed = parseFunction(Function.prototype.toString.call(fn));
  if (!parsed) {
    return fail(
      "its source does not parse as a function (minified, bound or native code is unsupported; " +
        `write the node as a plain function in a source file, e.g. ${EXAMPLE})`,
    );
  }
  const { node, comments } = parsed;
  const params = node.params;
  const rest = params.findIndex((p) => p.type === "RestElement");
  if (rest !== -1) {
    return fail(`a rest parameter is not allowed; take at most (edges, payload, ctx): ${EXAMPLE}`);
  }
  if (params.length > 3) {
    return fail(`it has ${params.length} parameters; a node takes at most (edges, payload, ctx)`);
  }
  const edges = params.length === 0 ? [] : readEdges(params[0]!);
  if (typeof edges === "string") return fail(edges);
  const signature: Signature = {
    edges,
    hasPayload: params.length >= 2,
    hasCtx: params.length >= 3,
    bodyDoc: bodyDocComment(node, comments),
  };
  return { ok: true, signature };
}

function fail(problem: string): SignatureResult {
  return { ok: false, problem };
}

interface Parsed {
  node: FunctionNode;
  comments: Comment[];
}

function parseFunction(source: string): Parsed | null {
  // A function or arrow parses as an expression in parentheses; a method (`async intake(...) {}`
  // taken from an object literal) only parses inside one, so try that second.
  for (const [prefix, suffix] of [
    ["(", ")"],
    ["({", "})"],
  ] as const) {
    const comments: Comment[] = [];
    let program: Node;
    try {
      program = parse(prefix + source + suffix, { ecmaVersion: "latest", onComment: comments });
    } catch {
      continue;
    }
    const node = functionOf(program);
    if (node) return { node, comments };
  }
  return null;
}

function functionOf(program: Node): FunctionNode | null {
  const body = (program as unknown as { body: Node[] }).body;
  if (body.length !== 1 || body[0]!.type !== "ExpressionStatement") return null;
  let expr = (body[0] as unknown as { expression: Node }).expression;
  if (expr.type === "ObjectExpression") {
    const props = (expr as unknown as { properties: Array<{ value: Node }> }).properties;
    if (props.length !== 1) return null;
    expr = props[0]!.value;
  }
  if (expr.type === "FunctionExpression" || expr.type === "ArrowFunctionExpression") {
    return expr as FunctionNode;
  }
  return null;
}

/** Edge names in declaration order, or a problem sentence. */
function readEdges(first: Pattern): string[] | string {
  const pattern = first.type === "AssignmentPattern" ? first.left : first;
  if (pattern.type !== "ObjectPattern") {
    const what = pattern.type === "ArrayPattern" ? "an array pattern" : "not an object pattern";
    return (
      `its first parameter is ${what}; list the edges by destructuring an object: ${EXAMPLE} ` +
      "(use `{}` for a node with no edges)"
    );
  }
  return readPatternKeys(pattern);
}

function readPatternKeys(pattern: ObjectPattern): string[] | string {
  const edges: string[] = [];
  for (const prop of pattern.properties) {
    if (prop.type === "RestElement") {
      return "a rest element (`{ ...more }`) in the edges pattern is not allowed; name every edge";
    }
    if (prop.computed) {
      return "a computed key in the edges pattern is not allowed; write each edge name literally";
    }
    const key = prop.key as Node & { name?: string; value?: unknown };
    // The KEY is the edge: `{ review: r }` declares `review` (esbuild may rename the local).
    const name = key.type === "Identifier" ? key.name! : String(key.value);
    if (edges.includes(name)) return `edge "${name}" is declared twice`;
    edges.push(name);
  }
  return edges;
}

function bodyDocComment(node: FunctionNode, comments: Comment[]): string | null {
  const body = node.body;
  if (body.type !== "BlockStatement") return null;
  const statements = (body as unknown as { body: Node[] }).body;
  const limit = statements.length > 0 ? statements[0]!.start : body.end;
  const first = comments.find((c) => c.start > body.start && c.end <= limit);
  if (first?.type !== "Block" || !first.value.startsWith("*")) return null;
  return cleanDocComment(first.value);
}

/** The text of a doc comment body (between the delimiters) without its `*` gutters or tags. */
export function cleanDocComment(inner: string): string | null {
  const lines = inner
    .replace(/^\*+/, "")
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*\*?\s?/, "").trimEnd());
  const tag = lines.findIndex((line) => line.trimStart().startsWith("@"));
  const text = (tag === -1 ? lines : lines.slice(0, tag)).join("\n").trim();
  return text === "" ? null : text;
}
