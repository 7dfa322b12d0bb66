// The work log is append-only; every entry is announced by `log.appended` with a preview.
import type { LogAuthor, LogKind, LogRecord } from "./domain.ts";
import type { Work } from "./unit-of-work.ts";

export const PREVIEW_CHARS = 200;

/**
 * The first PREVIEW_CHARS characters, counted in code points as the contract's Python origin
 * counts them, so a preview never ends in half a surrogate pair (which is not valid Unicode).
 */
export function previewOf(text: string): string {
  let end = 0;
  for (let n = 0; n < PREVIEW_CHARS && end < text.length; n++) {
    end += (text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
  }
  return text.slice(0, end);
}

export async function appendLog(
  work: Work,
  entry: {
    run_id: string;
    node: string;
    task_id: number | null;
    author: LogAuthor;
    kind: LogKind | null;
    text: string;
  },
): Promise<LogRecord> {
  // An operator's unit writes only the operator's own entries (author `user`).
  const operator = entry.author === "user" ? work.operator : null;
  const stored = await work.tx.appendLog({ ...entry, created: work.now, operator });
  work.emit("log.appended", entry.run_id, entry.task_id, {
    author: stored.author,
    kind: stored.kind,
    log_id: stored.id,
    node: stored.node,
    preview: previewOf(stored.text),
  });
  return stored;
}
