// The `Idempotency-Key`s of submits (schema step 4). Read and written only by a submit that
// carries a key, so a submit without one never touches the table.
import type { IdempotencyRecord } from "../../engine/index.ts";
import { type Db, first, sql } from "./sql.ts";

const GET_KEY = sql(
  "SELECT key, workflow, body_hash, run_id, created FROM idempotency_keys WHERE key = $1",
);

// A stored key created before $6 is replaced; a live one is left alone (no row returned).
const PUT_KEY = sql(`
INSERT INTO idempotency_keys (key, workflow, body_hash, run_id, created)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (key) DO UPDATE SET workflow = excluded.workflow, body_hash = excluded.body_hash,
  run_id = excluded.run_id, created = excluded.created
WHERE idempotency_keys.created < $6
RETURNING key`);

const EXPIRE_KEYS = sql(`
DELETE FROM idempotency_keys WHERE key IN (
  SELECT key FROM idempotency_keys WHERE created < $1 ORDER BY created LIMIT $2)`);

export async function getIdempotencyKey(db: Db, key: string): Promise<IdempotencyRecord | null> {
  const row = await first(db, GET_KEY, [key]);
  if (row === null) return null;
  return {
    key: row.key,
    workflow: row.workflow,
    body_hash: row.body_hash,
    run_id: row.run_id,
    created: Number(row.created),
  };
}

export async function putIdempotencyKey(
  db: Db,
  r: IdempotencyRecord,
  expiredBefore: number,
): Promise<boolean> {
  const values = [r.key, r.workflow, r.body_hash, r.run_id, r.created, expiredBefore];
  return (await db.run(PUT_KEY, values)).count === 1;
}

export async function expireIdempotencyKeys(db: Db, before: number, limit: number) {
  return (await db.run(EXPIRE_KEYS, [before, limit])).count;
}
