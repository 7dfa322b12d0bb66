// What a failed import says in `workflow_load_failed.detail`: the error's class, its message,
// and where the parser stopped (file and line), but never the text of the file. Parsers quote
// what they tripped over (`Unexpected identifier 'abc'`, esbuild's `but found "abc"`, V8's JSON
// snippet), and a file that is not code at all (a token, a key) would be echoed back piece by
// piece; so in the messages of parse errors, and of the ReferenceError a bare word raises when a
// data file runs as a script, quoted source is replaced by `…`. A message the workflow's own code
// throws (`throw new Error("...")`) is its author's, and is kept as thrown.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parse } from "acorn";

const ELIDED = "…";

/** V8's JSON.parse message quotes a window of the input: `"{"a": tok}"... is not valid JSON`. */
const JSON_SNIPPET = /(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)?(?= is not valid JSON)/;
const QUOTED = /(["'`])([^"'`\n]*?)\1/g;
/** Quoted punctuation (`Expected ";"`) cannot carry a secret and helps reading the error. */
const SAYS_SOMETHING = /[\p{L}\p{N}_$]/u;

export function elideSource(message: string): string {
  return message
    .replace(JSON_SNIPPET, ELIDED)
    .replace(QUOTED, (whole, _quote, inner: string) =>
      SAYS_SOMETHING.test(inner) ? ELIDED : whole,
    )
    .replace(/^[\p{L}\p{N}_$]+(?= is not defined$)/u, ELIDED);
}

/** One esbuild diagnostic line, as tsx's TransformError lists them. */
const ESBUILD_LINE = /^(.+):(\d+):(\d+): (?:ERROR|WARNING): (.*)$/;

function describeTransformError(message: string): string {
  const found = message
    .split("\n")
    .map((line) => ESBUILD_LINE.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(([, file, line, column, text]) => `${file}:${line}:${column}: ${elideSource(text!)}`);
  if (found.length === 0) return `TransformError: ${elideSource(message)}`;
  return `TransformError: ${found.join("; ")}`;
}

/** Node puts `<file or URL>:<line>` first in the stack of a syntax error it can place. */
const STACK_PLACE = /^(file:\/\/[^\s?]+|\/[^\s?:]+)(?:\?\S*)?:(\d+)$/;

function placeFromStack(stack: string | undefined): string | null {
  const m = STACK_PLACE.exec(stack?.split("\n", 1)[0] ?? "");
  if (!m) return null;
  const file = m[1]!.startsWith("file:") ? fileURLToPath(m[1]!) : m[1]!;
  return `${file}:${m[2]}`;
}

/** Where a JavaScript file stops parsing, for V8 errors that do not say (ES modules). */
async function placeByParsing(file: string | null): Promise<string | null> {
  if (file === null || !/\.(m|c)?js$/.test(file)) return null;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return null;
  }
  try {
    parse(text, {
      ecmaVersion: "latest",
      sourceType: file.endsWith(".cjs") ? "script" : "module",
      allowHashBang: true,
      allowReturnOutsideFunction: file.endsWith(".cjs"),
    });
    return null;
  } catch (err) {
    const loc = (err as { loc?: { line: number; column: number } }).loc;
    return loc ? `${file}:${loc.line}:${loc.column}` : null;
  }
}

/** The `detail` of a failed import of `file` (null: a package, whose entry is not known). */
export async function describeImportError(err: unknown, file: string | null): Promise<string> {
  if (!(err instanceof Error)) return String(err);
  const name = err.name || err.constructor?.name || "Error";
  if (name === "TransformError" || err.message.startsWith("Transform failed with")) {
    return describeTransformError(err.message);
  }
  if (err instanceof SyntaxError) {
    const place = placeFromStack(err.stack) ?? (await placeByParsing(file));
    return `${name}${place ? ` at ${place}` : ""}: ${elideSource(err.message)}`;
  }
  if (err instanceof ReferenceError) return `${name}: ${elideSource(err.message)}`;
  return `${name}: ${err.message}`;
}
