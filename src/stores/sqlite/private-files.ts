// The store holds every run's payloads, results and logs: only its user may read it. SQLite
// creates a database file 0644 (less the umask) and gives its -wal and -shm files the mode of
// the database file, so creating the empty database file 0600 before SQLite opens it makes all
// three private; the folders made for it are 0700. Files that already exist keep their mode:
// an operator who shared a store on purpose is not overruled.
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

/** Creates the folders of `path` (0700) and `path` itself, empty and 0600, unless it exists. */
export function ensurePrivateFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  closeSync(openSync(path, "a", PRIVATE_FILE_MODE));
}
