import path from "node:path";
import { fileURLToPath } from "node:url";

/** A workflow target split into what to import and which export to take. */
export type ParsedTarget =
  | { kind: "file"; file: string; exportName: string }
  | { kind: "module"; specifier: string; exportName: string };

export const SCRIPT_EXTENSIONS = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"];

/** `scheme:` at the start of a string, as a URL has it (a path never does on POSIX). */
const URL_SCHEME = /^([a-z][a-z\d+.-]*):/i;

/**
 * `path/to/file.ts:export` (relative to `baseDir`) or `module:export`. Splits at the LAST colon
 * so that a Windows drive letter stays in the path. Returns a problem sentence when malformed.
 * A `file:` URL names a file; any other URL (`data:`, `http:`, `node:`...) is refused here:
 * a target is code on this machine's disk, never code carried in the string itself.
 */
export function parseTarget(target: string, baseDir: string): ParsedTarget | string {
  if (typeof target !== "string") return "the target must be a string";
  const colon = target.lastIndexOf(":");
  if (colon === -1) {
    return `target "${target}" is not of the form "path/to/file.ts:export" or "module:export"`;
  }
  const where = target.slice(0, colon).trim();
  const exportName = target.slice(colon + 1).trim();
  if (!where) return `target "${target}" names no file or module before the colon`;
  if (!exportName) return `target "${target}" names no export after the colon`;
  const scheme = URL_SCHEME.exec(where)?.[1]?.toLowerCase();
  if (scheme === "file") return fileUrlTarget(where, exportName);
  if (scheme !== undefined && !path.isAbsolute(where)) {
    return `target "${target}" is a ${scheme}: URL; name a file or an installed package instead`;
  }
  if (isPathLike(where)) return { kind: "file", file: path.resolve(baseDir, where), exportName };
  return { kind: "module", specifier: where, exportName };
}

function fileUrlTarget(where: string, exportName: string): ParsedTarget | string {
  try {
    return { kind: "file", file: fileURLToPath(where), exportName };
  } catch {
    return `target "${where}:${exportName}" is not a valid file: URL`;
  }
}

function isPathLike(where: string): boolean {
  return (
    where.startsWith(".") ||
    path.isAbsolute(where) ||
    SCRIPT_EXTENSIONS.some((ext) => where.endsWith(ext))
  );
}
