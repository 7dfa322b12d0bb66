import ts from "typescript";
import { cleanDocComment } from "../authoring/signature.ts";

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
  const visit = (node: ts.Node): void => {
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

function scriptKind(file: string): ts.ScriptKind {
  if (/\.[cm]?jsx?$/.test(file)) return file.endsWith("x") ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
  return file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

type FunctionLike =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration;
type Declared = Map<string, { at: ts.Node; fn: FunctionLike }>;

function isFunctionValue(
  node: ts.Node | undefined,
): node is ts.FunctionExpression | ts.ArrowFunction {
  return !!node && (ts.isFunctionExpression(node) || ts.isArrowFunction(node));
}

/**
 * Top-level functions a `wf.node(...)` call may name instead of writing them inline:
 * `function f`, `const f = function/arrow`, and `const o = { f() {} }` reached as `o.f`.
 * `at` is where the body's doc comment and line are read.
 */
function declaredFunctions(sf: ts.SourceFile): Declared {
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

function addMembers(map: Declared, owner: string, obj: ts.ObjectLiteralExpression): void {
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
  sf: ts.SourceFile,
  call: ts.CallExpression,
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

function nameOption(options: ts.Expression | undefined): string | undefined {
  if (!options || !ts.isObjectLiteralExpression(options)) return undefined;
  for (const p of options.properties) {
    if (!ts.isPropertyAssignment(p) || p.name.getText() !== "name") continue;
    if (ts.isStringLiteralLike(p.initializer)) return p.initializer.text;
  }
  return undefined;
}

function enclosingStatement(node: ts.Node): ts.Node | undefined {
  let at: ts.Node | undefined = node;
  while (at && !ts.isExpressionStatement(at)) at = at.parent;
  return at;
}

function lineOf(sf: ts.SourceFile, node: ts.Node): number {
  return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
}

/** The doc comment directly before `node` (its leading trivia ends with `/** ... *\/`). */
function lastDoc(sf: ts.SourceFile, node: ts.Node | undefined): string | null {
  if (!node) return null;
  const comments = triviaComments(sf.text, node.pos, node.getStart(sf));
  return docText(comments[comments.length - 1]);
}

/** A doc comment that is the first thing inside the function's block body. */
function firstBodyDoc(sf: ts.SourceFile, fn: FunctionLike): string | null {
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
