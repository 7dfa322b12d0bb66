// The work log of a run and the submissions accepted for an attempt: append-only rows.
import type Database from "better-sqlite3";
import type { LogRecord, SubmissionRecord } from "../../engine/domain.ts";
import type { Row } from "./codec.ts";
import { logCodec, submissionCodec } from "./columns.ts";

const INSERT_LOG = `
INSERT INTO log (run_id, node, task_id, author, kind, text, created)
VALUES (@run_id, @node, @task_id, @author, @kind, @text, @created)
RETURNING *`;

const LIST_LOG = "SELECT * FROM log WHERE run_id = ? ORDER BY id";

const INSERT_SUBMISSION = `
INSERT INTO submissions (task_id, created, payload) VALUES (@task_id, @created, @payload)
RETURNING *`;

const LIST_SUBMISSIONS = "SELECT * FROM submissions WHERE task_id = ? ORDER BY id";

export function logReads(db: Database.Database) {
  const log = db.prepare<[string], Row>(LIST_LOG);
  const submissions = db.prepare<[number], Row>(LIST_SUBMISSIONS);
  return {
    listLog: (runId: string): LogRecord[] => log.all(runId).map(logCodec.decode),
    listSubmissions: (taskId: number): SubmissionRecord[] =>
      submissions.all(taskId).map(submissionCodec.decode),
  };
}

export function logWrites(db: Database.Database) {
  const log = db.prepare<[Row], Row>(INSERT_LOG);
  const submission = db.prepare<[Row], Row>(INSERT_SUBMISSION);
  return {
    appendLog: (entry: Omit<LogRecord, "id">): LogRecord =>
      logCodec.decode(log.get(logCodec.encodeAll(entry))!),
    insertSubmission: (entry: Omit<SubmissionRecord, "id">): SubmissionRecord =>
      submissionCodec.decode(submission.get(submissionCodec.encodeAll(entry))!),
  };
}

export type LogReads = ReturnType<typeof logReads>;
export type LogWrites = ReturnType<typeof logWrites>;
