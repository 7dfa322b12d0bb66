// The work log of a run and the submissions accepted for an attempt: append-only rows.
import type Database from "better-sqlite3";
import type { LogRecord, SubmissionRecord } from "../../engine/index.ts";
import { logCodec, submissionCodec } from "./columns.ts";
import { RecordQuery } from "./record-query.ts";

const INSERT_LOG = `
INSERT INTO log (run_id, node, task_id, author, kind, text, created, operator)
VALUES (@run_id, @node, @task_id, @author, @kind, @text, @created, @operator)
RETURNING *`;

const LIST_LOG = "SELECT * FROM log WHERE run_id = ? ORDER BY id";

const INSERT_SUBMISSION = `
INSERT INTO submissions (task_id, created, payload) VALUES (@task_id, @created, @payload)
RETURNING *`;

const LIST_SUBMISSIONS = "SELECT * FROM submissions WHERE task_id = ? ORDER BY id";

const MARK_AGENT_RESULT = "UPDATE submissions SET agent_call = ? WHERE id = ?";

export function logReads(db: Database.Database) {
  const log = new RecordQuery(db, LIST_LOG, logCodec);
  const submissions = new RecordQuery(db, LIST_SUBMISSIONS, submissionCodec);
  return {
    listLog: (runId: string): LogRecord[] => log.all(runId),
    listSubmissions: (taskId: number): SubmissionRecord[] => submissions.all(taskId),
  };
}

export function logWrites(db: Database.Database) {
  const log = new RecordQuery(db, INSERT_LOG, logCodec);
  const submission = new RecordQuery(db, INSERT_SUBMISSION, submissionCodec);
  const mark = db.prepare<[number, number]>(MARK_AGENT_RESULT);
  return {
    appendLog: (entry: Omit<LogRecord, "id">): LogRecord => log.get(logCodec.encodeAll(entry))!,
    insertSubmission: (entry: Omit<SubmissionRecord, "id" | "agent_call">): SubmissionRecord =>
      submission.get(submissionCodec.encodeAll({ ...entry, agent_call: null }))!,
    markAgentResult: (id: number, call: number): void => {
      mark.run(call, id);
    },
  };
}

export type LogReads = ReturnType<typeof logReads>;
export type LogWrites = ReturnType<typeof logWrites>;
