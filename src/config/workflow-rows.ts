// Persisting registrations as `[workflows.<name>]` rows of the configuration file
// (http-api.md Workflows, `persist`). The edit is textual so the user's file keeps its
// comments and layout, then checked by parsing: the new file must hold exactly the old
// document with this one row changed, or nothing is written.
import { randomBytes } from "node:crypto";
import { chmod, readFile, realpath, rename, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { parse } from "smol-toml";
import { removeRowText, upsertRowText, type WorkflowRow } from "./workflow-row-edit.ts";

export type { WorkflowRow } from "./workflow-row-edit.ts";

/** A row could not be written; the HTTP layer answers `persist_failed` with path and detail. */
export class ConfigWriteError extends Error {
  readonly path: string;
  readonly detail: string;

  constructor(path: string, detail: string, cause?: unknown) {
    super(`cannot update ${path}: ${detail}`, cause === undefined ? undefined : { cause });
    this.name = "ConfigWriteError";
    this.path = path;
    this.detail = detail;
  }
}

type Doc = Record<string, unknown>;

/**
 * A copy with a null prototype, like the tables smol-toml returns: the deep comparison below
 * checks prototypes, and a row named `__proto__` stays an ordinary key.
 */
function tableOf(...sources: unknown[]): Doc {
  return Object.assign(Object.create(null) as Doc, ...sources.map((s) => s ?? {}));
}

export async function persistWorkflowRow(
  file: string,
  name: string,
  row: WorkflowRow,
): Promise<void> {
  await edit(file, (text, doc) => {
    const workflows = tableOf(doc.workflows);
    workflows[name] = tableOf(workflows[name], row);
    return { text: upsertRowText(text, name, row), expected: tableOf(doc, { workflows }) };
  });
}

/** Removes the row; false when the file has no `[workflows.<name>]` table (or no file). */
export async function removeWorkflowRow(file: string, name: string): Promise<boolean> {
  let removed = false;
  await edit(file, (text, doc) => {
    const next = removeRowText(text, name);
    if (next === null) {
      const rows = doc.workflows as Doc | undefined;
      if (rows && Object.hasOwn(rows, name)) {
        throw new Error(`workflows.${name} is not written as a [workflows.${name}] table`);
      }
      return null;
    }
    removed = true;
    const workflows = tableOf(doc.workflows);
    delete workflows[name];
    return { text: next, expected: tableOf(doc, { workflows }) };
  });
  return removed;
}

type Change = { text: string; expected: Doc } | null;

// Rows of one file are edited one at a time: two registrations racing on read-modify-write
// would otherwise lose one of them.
const queues = new Map<string, Promise<unknown>>();

async function edit(file: string, change: (text: string, doc: Doc) => Change): Promise<void> {
  const previous = queues.get(file) ?? Promise.resolve();
  const current = previous.catch(() => {}).then(() => applyEdit(file, change));
  queues.set(file, current);
  try {
    await current;
  } finally {
    if (queues.get(file) === current) queues.delete(file);
  }
}

async function applyEdit(file: string, change: (text: string, doc: Doc) => Change) {
  try {
    const before = await readIfExists(file);
    const doc = parseDoc(before ?? "", "the file does not parse as TOML");
    const result = change(before ?? "", doc);
    if (result === null) return;
    const after = parseDoc(result.text, "the edited file would not parse as TOML");
    if (!isDeepStrictEqual(withoutEmptyRows(after), withoutEmptyRows(result.expected))) {
      throw new Error("the edit would change more than this row; edit the file by hand");
    }
    await writeAtomically(file, result.text, before !== null);
  } catch (error) {
    if (error instanceof ConfigWriteError) throw error;
    throw new ConfigWriteError(file, (error as Error).message, error);
  }
}

async function readIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function parseDoc(text: string, what: string): Doc {
  try {
    return parse(text) as Doc;
  } catch (error) {
    throw new Error(`${what}: ${(error as Error).message}`);
  }
}

/** `[workflows]` with no rows left and no `[workflows]` at all mean the same thing. */
function withoutEmptyRows(doc: Doc): Doc {
  const rows = doc.workflows;
  if (typeof rows !== "object" || rows === null || Object.keys(rows).length > 0) return doc;
  const rest = tableOf(doc);
  delete rest.workflows;
  return rest;
}

/**
 * Temp file beside the target, then rename: a reader never sees half a file. The temp file is
 * created private (the file may hold a store URL with its password) and takes the mode of the
 * file it replaces; a file the server creates stays private (0600).
 */
async function writeAtomically(file: string, text: string, exists: boolean): Promise<void> {
  // Write through a symlinked configuration file rather than replacing the link.
  const target = exists ? await realpath(file) : file;
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeFile(temp, text, { encoding: "utf8", flag: "wx", mode: 0o600 });
    if (exists) await chmod(temp, (await stat(target)).mode & 0o7777);
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}
