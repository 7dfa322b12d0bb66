// The `Idempotency-Key`s of submits (schema step 5). Read and written only by a submit that
// carries a key, so a submit without one never touches the table.
import type Database from "better-sqlite3";
import type { IdempotencyRecord } from "../../engine/index.ts";

const GET_KEY =
  "SELECT key, workflow, body_hash, run_id, created FROM idempotency_keys WHERE key = ?";

// A stored key created before @expired is replaced; a live one is left alone (no change).
const PUT_KEY = `
INSERT INTO idempotency_keys (key, workflow, body_hash, run_id, created)
VALUES (@key, @workflow, @body_hash, @run_id, @created)
ON CONFLICT (key) DO UPDATE SET workflow = excluded.workflow, body_hash = excluded.body_hash,
  run_id = excluded.run_id, created = excluded.created
WHERE idempotency_keys.created < @expired`;

const EXPIRE_KEYS = `
DELETE FROM idempotency_keys WHERE key IN (
  SELECT key FROM idempotency_keys WHERE created < ? ORDER BY created LIMIT ?)`;

export function idempotencyReads(db: Database.Database) {
  const get = db.prepare<[string], IdempotencyRecord>(GET_KEY);
  return {
    get: (key: string): IdempotencyRecord | null => get.get(key) ?? null,
  };
}

export function idempotencyWrites(db: Database.Database) {
  const put = db.prepare<[Record<string, unknown>]>(PUT_KEY);
  const expire = db.prepare<[number, number]>(EXPIRE_KEYS);
  return {
    put: (record: IdempotencyRecord, expiredBefore: number): boolean =>
      put.run({ ...record, expired: expiredBefore }).changes === 1,
    expire: (before: number, limit: number): number => expire.run(before, limit).changes,
  };
}
