// Pure text edits of one `[workflows.<name>]` table. Everything outside the table is kept
// byte for byte; inside it, only the `target` and `pool` lines are touched, so a comment a
// user wrote in the row survives a re-registration.
import {
  findTable,
  isBlank,
  lineEnding,
  splitLines,
  type TableSpan,
  tomlKey,
  tomlString,
} from "./toml-table-text.ts";

export interface WorkflowRow {
  target: string;
  pool: string;
}

const ROW_KEYS = ["target", "pool"] as const;
const KEY_LINE = /^(\s*)(["']?)(target|pool)\2\s*=/;

function eolOf(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

function rowPath(name: string): string[] {
  return ["workflows", name];
}

/** Text with the row written: updated in place when the table exists, else appended. */
export function upsertRowText(text: string, name: string, row: WorkflowRow): string {
  const lines = splitLines(text);
  const eol = eolOf(text);
  const span = findTable(lines, rowPath(name));
  if (span === null) return appendRow(text, name, row, eol);
  return updateRow(lines, span, row, eol).join("");
}

function rowLines(name: string, row: WorkflowRow, eol: string): string {
  const keys = ROW_KEYS.map((key) => `${key} = ${tomlString(row[key])}${eol}`).join("");
  return `[workflows.${tomlKey(name)}]${eol}${keys}`;
}

/** A new row goes at the end, after one blank line (removeRowText takes that line back). */
function appendRow(text: string, name: string, row: WorkflowRow, eol: string): string {
  if (text === "") return rowLines(name, row, eol);
  const terminated = lineEnding(text) === "" ? text + eol : text;
  return `${terminated}${eol}${rowLines(name, row, eol)}`;
}

function updateRow(lines: string[], span: TableSpan, row: WorkflowRow, eol: string): string[] {
  const out = [...lines];
  const seen = new Set<string>();
  for (let i = span.header + 1; i <= span.contentEnd; i++) {
    const match = KEY_LINE.exec(out[i]);
    if (!match) continue;
    const key = match[3] as keyof WorkflowRow;
    const comment = trailingComment(out[i], match[0].length);
    out[i] = `${match[1]}${key} = ${tomlString(row[key])}${comment}${lineEnding(out[i]) || eol}`;
    seen.add(key);
  }
  const missing = ROW_KEYS.filter((key) => !seen.has(key));
  if (missing.length === 0) return out;
  const last = span.contentEnd;
  if (lineEnding(out[last]) === "") out[last] += eol;
  const added = missing.map((key) => `${key} = ${tomlString(row[key])}${eol}`);
  out.splice(last + 1, 0, ...added);
  return out;
}

/**
 * The comment after a one-line string value (`pool = "a"  # why`), spacing included, or "".
 * Other value forms (multi-line strings, a bare value) keep today's rewrite without it.
 */
function trailingComment(line: string, valueFrom: number): string {
  const text = line.replace(/\r?\n$/, "");
  let i = valueFrom;
  while (text[i] === " " || text[i] === "\t") i++;
  const quote = text[i];
  if ((quote !== '"' && quote !== "'") || text.startsWith(quote.repeat(3), i)) return "";
  for (i++; i < text.length && text[i] !== quote; i++) if (quote === '"' && text[i] === "\\") i++;
  const rest = text.slice(i + 1);
  return /^\s*#/.test(rest) ? rest : "";
}

/**
 * Text without the row, or null when there is no `[workflows.<name>]` table. The blank lines
 * after the row go with it; at the end of the file, so does the blank line before it.
 */
export function removeRowText(text: string, name: string): string | null {
  const lines = splitLines(text);
  const span = findTable(lines, rowPath(name));
  if (span === null) return null;
  let end = span.contentEnd + 1;
  while (end < span.next && isBlank(lines[end])) end++;
  let start = span.header;
  if (end === lines.length && start > 0 && isBlank(lines[start - 1])) start--;
  const out = [...lines.slice(0, start), ...lines.slice(end)];
  return out.join("");
}
