// Finding a `[table]` in TOML text by its header line, so one table can be rewritten while
// every other byte of a hand-edited file (comments, order, spacing) stays as the user left it.
import { parse } from "smol-toml";

export interface TableSpan {
  /** Index of the `[...]` header line. */
  header: number;
  /** Index of the table's last line holding a key (the header itself when it has none). */
  contentEnd: number;
  /** Index of the next header line, or the line count. */
  next: number;
}

/** Lines with their terminators kept, so joining them gives back the exact text. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export function lineEnding(line: string): string {
  if (line.endsWith("\r\n")) return "\r\n";
  return line.endsWith("\n") ? "\n" : "";
}

export function isBlank(line: string): boolean {
  return line.trim() === "";
}

function isBlankOrComment(line: string): boolean {
  const t = line.trim();
  return t === "" || t.startsWith("#");
}

function isHeaderLine(line: string): boolean {
  return /^\s*\[/.test(line);
}

/**
 * Whether a line is the header of the table at `path`. The line is parsed on its own, which
 * settles bare, "basic" and 'literal' key spellings and a trailing comment the same way the
 * full parser would.
 */
export function isHeaderOf(line: string, path: readonly string[]): boolean {
  if (!/^\s*\[[^[]/.test(line)) return false;
  let node: unknown;
  try {
    node = parse(line);
  } catch {
    return false;
  }
  for (const part of path) {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return false;
    const keys = Object.keys(node);
    if (keys.length !== 1 || keys[0] !== part) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "object" && node !== null && Object.keys(node).length === 0;
}

export function findTable(lines: readonly string[], path: readonly string[]): TableSpan | null {
  const header = lines.findIndex((line) => isHeaderOf(line, path));
  if (header < 0) return null;
  let next = header + 1;
  while (next < lines.length && !isHeaderLine(lines[next])) next++;
  let contentEnd = next - 1;
  // Comments and blank lines just above the next header usually describe that next table.
  while (contentEnd > header && isBlankOrComment(lines[contentEnd])) contentEnd--;
  return { header, contentEnd, next };
}

/** A TOML basic string. JSON escapes are valid TOML escapes; DEL is the one extra to escape. */
export function tomlString(value: string): string {
  return JSON.stringify(value).replace(/\u007f/g, "\\u007F");
}

export function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}
