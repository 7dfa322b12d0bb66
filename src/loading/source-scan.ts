import { createRequire } from "node:module";
import type * as TS from "typescript";
import { cleanDocComment } from "../authoring/signature.ts";

// Loaded with require, not import: an ES module import of this 9 MB CommonJS file first scans it
// for its named exports, which cost the scan's process about 28 MiB more and 0.6 s more to start
// (116 against 88 MiB RSS, 1.0 against 0.36 s, measured loading it alone).
const ts: typeof TS = createRequire(import.meta.url)("typescript");

/** Where a node's body sits in its file, and the doc comment written for it there. */
export interface ScannedNode {
  line: number;
  doc: string | null;
}

/**
 * Finds the `<receiver>.node(...)` calls of a workflow file with the TypeScript parser. The
 * runtime cannot tell us this: tsx strips comments and types before the function exists, so
 * `fn.toString()` has neither the doc comment nor the original line. Calls whose receiver is
 * `receiver` (the export's name) win when a file defines several workflows.
 */
export function scanNodes(file: string, text: string, receiver?: string): Map<string, ScannedNode> {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const declared = declaredFunctions(sf);
  const found: Array<ScannedNode & { name: string; receiver: string }> = [];
  const visit = (node: TS.Node): void => {
    const hit = ts.isCallExpression(node) ? nodeCall(sf, node, declared) : null;
    if (hit) found.push(hit);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const preferred = found.some((f) => f.receiver === receiver)
    ? found.filter((f) => f.receiver === receiver)
    : found;
  const out = new Map<string, ScannedNode>();
  for (const f of preferred) if (!out.has(f.name)) out.set(f.name, { line: f.line, doc: f.doc });
  return out;
}

function scriptKind(file: string): TS.ScriptKind {
  if (/\.[cm]?jsx?$/.test(file)) return file.endsWith("x") ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
  return file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

type FunctionLike =
  | TS.FunctionDeclaration
  | TS.FunctionExpression
  | TS.ArrowFunction
  | TS.MethodDeclaration;
type Declared = Map<string, { at: TS.Node; fn: FunctionLike }>;

function isFunctionValue(
  node: TS.Node | undefined,
): node is TS.FunctionExpression | TS.ArrowFunction {
  return !!node && (ts.isFunctionExpression(node) || ts.isArrowFunction(node));
}

/**
 * Top-level functions a `wf.node(...)` call may name instead of writing them inline:
 * `function f`, `const f = function/arrow`, and `const o = { f() {} }` reached as `o.f`.
 * `at` is where the body's doc comment and line are read.
 */
function declaredFunctions(sf: TS.SourceFile): Declared {
  const map: Declared = new Map();
  for (const stmt of sf.statements) {
    if (ts.isFunctionDeclaration(stmt) && stmt.name)
      map.set(stmt.name.text, { at: stmt, fn: stmt });
    if (!ts.isVariableStatement(stmt)) continue;
    for (const d of stmt.declarationList.declarations) {
      if (!ts.isIdentifier(d.name)) continue;
      if (isFunctionValue(d.initializer)) map.set(d.name.text, { at: stmt, fn: d.initializer });
      if (d.initializer && ts.isObjectLiteralExpression(d.initializer)) {
        addMembers(map, d.name.text, d.initializer);
      }
    }
  }
  return map;
}

function addMembers(map: Declared, owner: string, obj: TS.ObjectLiteralExpression): void {
  for (const p of obj.properties) {
    if (!p.name || !ts.isIdentifier(p.name)) continue;
    const key = `${owner}.${p.name.text}`;
    if (ts.isMethodDeclaration(p)) map.set(key, { at: p, fn: p });
    if (ts.isPropertyAssignment(p) && isFunctionValue(p.initializer)) {
      map.set(key, { at: p, fn: p.initializer });
    }
  }
}

function nodeCall(
  sf: TS.SourceFile,
  call: TS.CallExpression,
  declared: Declared,
): (ScannedNode & { name: string; receiver: string }) | null {
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== "node") return null;
  if (call.arguments.length < 1 || call.arguments.length > 2) return null;
  const fnArg = call.arguments[call.arguments.length - 1]!;
  const optionName = nameOption(call.arguments.length === 2 ? call.arguments[0]! : undefined);
  const receiver = callee.expression.getText(sf);
  if (isFunctionValue(fnArg)) {
    const name = optionName ?? (ts.isFunctionExpression(fnArg) ? fnArg.name?.text : undefined);
    if (!name) return null;
    const doc =
      lastDoc(sf, fnArg) ?? lastDoc(sf, enclosingStatement(call)) ?? firstBodyDoc(sf, fnArg);
    return { name, receiver, line: lineOf(sf, callee.name), doc };
  }
  const ref = ts.isIdentifier(fnArg) || ts.isPropertyAccessExpression(fnArg) ? fnArg : null;
  const target = ref ? declared.get(ref.getText(sf)) : undefined;
  if (!ref || !target) return null;
  const name = optionName ?? (ts.isIdentifier(ref) ? ref.text : ref.name.text);
  const doc = lastDoc(sf, target.at) ?? firstBodyDoc(sf, target.fn);
  return { name, receiver, line: lineOf(sf, target.at), doc };
}

function nameOption(options: TS.Expression | undefined): string | undefined {
  if (!options || !ts.isObjectLiteralExpression(options)) return undefined;
  for (const p of options.properties) {
    if (!ts.isPropertyAssignment(p) || p.name.getText() !== "name") continue;
    if (ts.isStringLiteralLike(p.initializer)) return p.initializer.text;
  }
  return undefined;
}

function enclosingStatement(node: TS.Node): TS.Node | undefined {
  let at: TS.Node | undefined = node;
  while (at && !ts.isExpressionStatement(at)) at = at.parent;
  return at;
}

function lineOf(sf: TS.SourceFile, node: TS.Node): number {
  return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
}

/** The doc comment directly before `node` (its leading trivia ends with `/** ... *\/`). */
function lastDoc(sf: TS.SourceFile, node: TS.Node | undefined): string | null {
  if (!node) return null;
  const comments = triviaComments(sf.text, node.pos, node.getStart(sf));
  return docText(comments[comments.length - 1]);
}

/** A doc comment that is the first thing inside the function's block body. */
function firstBodyDoc(sf: TS.SourceFile, fn: FunctionLike): string | null {
  const body = fn.body;
  if (!body || !ts.isBlock(body)) return null;
  const end = body.statements[0]?.getStart(sf) ?? body.end - 1;
  return docText(triviaComments(sf.text, body.getStart(sf) + 1, end)[0]);
}

function docText(comment: string | undefined): string | null {
  if (!comment?.startsWith("/**") || comment === "/**/") return null;
  return cleanDocComment(comment.slice(3, -2));
}

/**
 * Block comments in a stretch the parser reported as trivia (only whitespace and comments).
 * Line comments are skipped, so a lint directive between a doc comment and its function
 * does not hide the doc comment. A shebang at the very start is skipped like a line comment.
 */
function triviaComments(text: string, from: number, to: number): string[] {
  const out: string[] = [];
  let i = from;
  while (i < to) {
    if (text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? to : end + 2;
      out.push(text.slice(i, stop));
      i = stop;
    } else if (text.startsWith("//", i) || text.startsWith("#!", i)) {
      const end = text.indexOf("\n", i);
      i = end === -1 ? to : end + 1;
    } else {
      i++;
    }
  }
  return out;
}
