// The work log is append-only; every entry is announced by `log.appended` with a preview.
import type { LogAuthor, LogKind, LogRecord } from "./domain.ts";
import type { Work } from "./unit-of-work.ts";

export const PREVIEW_CHARS = 200;

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
  const stored = await work.tx.appendLog({ ...entry, created: work.now });
  work.emit("log.appended", entry.run_id, entry.task_id, {
    author: stored.author,
    kind: stored.kind,
    log_id: stored.id,
    node: stored.node,
    preview: stored.text.slice(0, PREVIEW_CHARS),
  });
  return stored;
}
