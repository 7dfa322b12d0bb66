// Relative paths in a configuration file mean "relative to this file's folder", so a server
// started from any working folder finds the same store, token and workflow files.
import { isAbsolute, resolve } from "node:path";

const SCRIPT_FILE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/**
 * Makes the store URL's SQLite path absolute. `sqlite::memory:` and postgres URLs are
 * returned unchanged.
 */
export function resolveStoreUrl(store: string, baseDir: string): string {
  if (!store.startsWith("sqlite:")) return store;
  const path = store.slice("sqlite:".length);
  if (path === ":memory:" || isAbsolute(path)) return store;
  return `sqlite:${resolve(baseDir, path)}`;
}

/** Splits `file.ts:export` at the last colon, so a Windows drive letter stays in the file. */
export function splitTarget(target: string): { module: string; attr: string } | null {
  const at = target.lastIndexOf(":");
  if (at <= 0 || at === target.length - 1) return null;
  return { module: target.slice(0, at), attr: target.slice(at + 1) };
}

/** Whether a target's module part names a file (by extension or an explicit path prefix). */
export function isFileModule(module: string): boolean {
  return SCRIPT_FILE.test(module) || /^\.{1,2}[\\/]/.test(module) || isAbsolute(module);
}

/**
 * Makes a file target's path absolute against `baseDir`. Module targets (`pkg:export`) and
 * strings that are not targets at all are returned unchanged: registration reports those.
 */
export function resolveTarget(target: string, baseDir: string): string {
  const parts = splitTarget(target);
  if (parts === null || !isFileModule(parts.module) || isAbsolute(parts.module)) return target;
  return `${resolve(baseDir, parts.module)}:${parts.attr}`;
}

/**
 * The URL agents are told to call when none is configured. A wildcard bind is reached over
 * loopback: agents are child processes on the same machine.
 */
export function defaultPublicUrl(host: string, port: number): string {
  let name = host;
  if (host === "0.0.0.0") name = "127.0.0.1";
  else if (host === "::" || host === "[::]") name = "[::1]";
  else if (host.includes(":") && !host.startsWith("[")) name = `[${host}]`;
  return `http://${name}:${port}`;
}
