// One serving process per store file. Start-up recovery treats every attempt left in progress
// as abandoned, and the claim index lives in the process that writes: a second server on the
// same file would take over attempts the first one is still running, and the first would then
// never record their outcome. So a serving store holds an exclusive SQLite lock on a companion
// file, `<store>.lock`, for as long as it is open (an open `BEGIN EXCLUSIVE` on an empty
// database: nothing is ever written to it). The operating system drops the lock when the
// process ends, however it ends, so a crash leaves no stale lock to clear by hand. The file
// itself stays: deleting it would let two processes lock two different files of one name.
import Database from "better-sqlite3";
import { ensurePrivateFile } from "./private-files.ts";

export class StoreInUseError extends Error {
  constructor(path: string, cause: unknown) {
    super(
      `${path} is in use by another Yardmaster server (it holds ${path}.lock); ` +
        "stop that server first, or give this one a store of its own",
      { cause },
    );
    this.name = "StoreInUseError";
  }
}

/** Takes the lock or refuses at once (no waiting: the holder may serve for days). */
export function holdServingLock(path: string): Database.Database {
  ensurePrivateFile(`${path}.lock`);
  const lock = new Database(`${path}.lock`, { timeout: 0 });
  try {
    lock.exec("BEGIN EXCLUSIVE");
    return lock;
  } catch (err) {
    lock.close();
    if ((err as { code?: string }).code === "SQLITE_BUSY") throw new StoreInUseError(path, err);
    throw err;
  }
}
