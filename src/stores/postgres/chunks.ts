// Streamed output of an attempt, numbered per task 1, 2, 3, ... (the `seq` cursor of the API).
// One statement numbers and inserts a batch from the task's last stored seq; two writers
// racing on one task (an attempt runs on one server) would collide on the primary key rather
// than interleave numbers.
import type { StreamChunkRecord } from "../../engine/index.ts";
import { toChunk } from "./rows.ts";
import { type Db, first, rows, sql } from "./sql.ts";

const APPEND = sql(`
INSERT INTO chunks (task_id, seq, kind, text, created)
SELECT $1::bigint, (SELECT COALESCE(MAX(seq), 0) FROM chunks WHERE task_id = $1::bigint) + c.ord,
  c.kind, c.text, $4::bigint
FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS c(kind, text, ord)
RETURNING *`);

const LIST = sql("SELECT * FROM chunks WHERE task_id = $1 AND seq > $2 ORDER BY seq LIMIT $3");
const LAST_SEQ = sql("SELECT COALESCE(MAX(seq), 0) AS seq FROM chunks WHERE task_id = $1");

export async function appendChunks(
  db: Db,
  taskId: number,
  chunks: ReadonlyArray<Pick<StreamChunkRecord, "kind" | "text">>,
  now: number,
): Promise<StreamChunkRecord[]> {
  if (chunks.length === 0) return [];
  const values = [taskId, chunks.map((c) => c.kind), chunks.map((c) => c.text), now];
  const stored = (await rows(db, APPEND, values)).map(toChunk);
  return stored.sort((a, b) => a.seq - b.seq);
}

export async function listChunks(
  db: Db,
  taskId: number,
  after: number,
  limit: number,
): Promise<StreamChunkRecord[]> {
  // LIMIT NULL is no limit; so is a negative one, as in the SQLite store.
  const n = limit < 0 ? null : Math.floor(limit);
  return (await rows(db, LIST, [taskId, after, n])).map(toChunk);
}

export async function lastChunkSeq(db: Db, taskId: number): Promise<number> {
  return (await first(db, LAST_SEQ, [taskId]))!.seq;
}
