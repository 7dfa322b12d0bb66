// `persist`: writing or removing the `[workflows.<name>]` row of the configuration file. A
// server started without a configuration file persists into `yardmaster.toml` in its
// configuration folder (the working folder), the file the next `yardmaster serve` started
// there reads by default.
import { join } from "node:path";
import {
  ConfigWriteError,
  DEFAULT_CONFIG_FILE,
  persistWorkflowRow,
  removeWorkflowRow,
  type WorkflowRow,
} from "../../config/index.ts";
import { ServiceError } from "../errors.ts";

export function persistPath(file: string | null, configDir: string): string {
  return file ?? join(configDir, DEFAULT_CONFIG_FILE);
}

function persistFailed(path: string, err: unknown): ServiceError {
  const detail =
    err instanceof ConfigWriteError ? err.detail : err instanceof Error ? err.message : String(err);
  const where = err instanceof ConfigWriteError ? err.path : path;
  return new ServiceError(
    "persist_failed",
    `The registration could not be written to ${where}: ${detail}`,
    { path: where, detail },
    { cause: err },
  );
}

export async function writeRow(path: string, name: string, row: WorkflowRow): Promise<void> {
  try {
    await persistWorkflowRow(path, name, row);
  } catch (err) {
    throw persistFailed(path, err);
  }
}

/** Removes the row; false when the file has none (not an error). */
export async function dropRow(path: string, name: string): Promise<boolean> {
  try {
    return await removeWorkflowRow(path, name);
  } catch (err) {
    throw persistFailed(path, err);
  }
}
