import path from "node:path";

/** A workflow target split into what to import and which export to take. */
export type ParsedTarget =
  | { kind: "file"; file: string; exportName: string }
  | { kind: "module"; specifier: string; exportName: string };

const FILE_EXTENSIONS = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"];

/**
 * `path/to/file.ts:export` (relative to `baseDir`) or `module:export`. Splits at the LAST colon
 * so that a Windows drive letter stays in the path. Returns a problem sentence when malformed.
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
  if (isPathLike(where)) return { kind: "file", file: path.resolve(baseDir, where), exportName };
  return { kind: "module", specifier: where, exportName };
}

function isPathLike(where: string): boolean {
  return (
    where.startsWith(".") ||
    path.isAbsolute(where) ||
    FILE_EXTENSIONS.some((ext) => where.endsWith(ext))
  );
}
