// Streamed output of an attempt, numbered per task 1, 2, 3, ... (the `seq` cursor of the API).
import type Database from "better-sqlite3";
import type { StreamChunkRecord } from "../../engine/index.ts";
import { chunkCodec } from "./columns.ts";
import { RecordQuery } from "./record-query.ts";

const INSERT_CHUNK = `
INSERT INTO chunks (task_id, seq, kind, text, created) VALUES (@task_id, @seq, @kind, @text, @created)
RETURNING *`;

const LIST_CHUNKS = "SELECT * FROM chunks WHERE task_id = ? AND seq > ? ORDER BY seq LIMIT ?";

const LAST_CHUNK_SEQ = "SELECT COALESCE(MAX(seq), 0) AS seq FROM chunks WHERE task_id = ?";

export function chunkReads(db: Database.Database) {
  const list = new RecordQuery(db, LIST_CHUNKS, chunkCodec);
  const last = db.prepare<[number], { seq: number }>(LAST_CHUNK_SEQ);
  return {
    list: (taskId: number, after: number, limit: number): StreamChunkRecord[] =>
      list.all(taskId, after, Math.floor(limit)),
    lastSeq: (taskId: number): number => last.get(taskId)!.seq,
  };
}

export function chunkWrites(db: Database.Database) {
  const insert = new RecordQuery(db, INSERT_CHUNK, chunkCodec);
  const last = db.prepare<[number], { seq: number }>(LAST_CHUNK_SEQ);
  return {
    append(
      taskId: number,
      chunks: ReadonlyArray<Pick<StreamChunkRecord, "kind" | "text">>,
      now: number,
    ): StreamChunkRecord[] {
      // Writes are serialized, so the seq read here cannot be taken by anyone else.
      let seq = last.get(taskId)!.seq;
      return chunks.map((chunk) => {
        seq += 1;
        const row = { task_id: taskId, seq, kind: chunk.kind, text: chunk.text, created: now };
        return insert.get(row)!;
      });
    },
  };
}

export type ChunkReads = ReturnType<typeof chunkReads>;
export type ChunkWrites = ReturnType<typeof chunkWrites>;
