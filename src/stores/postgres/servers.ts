// The rows of the servers sharing a schema, and the attempts a dead one leaves behind. A server
// is present while it holds a session advisory lock keyed by (schema, server id) on its notice
// connection (cluster.ts): PostgreSQL drops the lock when that session ends, so the servers still
// alive see a killed server dead at once, not only when its lease runs out. A probe that takes
// the lock in its own statement (a transaction-level lock) lets it go when the statement ends.
import type { ServerRecord, TaskRecord } from "../../engine/index.ts";
import { toTask } from "./rows.ts";
import { type Db, rows, sql } from "./sql.ts";

/** Presence is `pg_advisory_lock(PRESENCE)` with $1 the schema, $2 the server id. */
export const PRESENCE = "hashtext('yardmaster:' || $1::text), hashtext($2::text)";

const JOIN = sql(`
INSERT INTO servers (id, host, pid, url, lease_until)
VALUES ($1, $2, $3, $4, clock_timestamp() + $5 * interval '1 millisecond')`);

const RENEW = sql(`
UPDATE servers SET heartbeat = clock_timestamp(),
  lease_until = clock_timestamp() + $2 * interval '1 millisecond'
WHERE id = $1`);

const LIVE = sql(`
SELECT id, host, pid, url,
  (extract(epoch FROM started) * 1000)::float8 AS started,
  (extract(epoch FROM heartbeat) * 1000)::float8 AS heartbeat,
  (extract(epoch FROM lease_until) * 1000)::float8 AS lease_until
FROM servers WHERE lease_until > clock_timestamp() ORDER BY started, id`);

// Dead: the lease ran out, or nobody holds the presence lock (taken here only for the
// statement, so the probe never keeps it).
const DEAD = `(s.lease_until < clock_timestamp()
  OR pg_try_advisory_xact_lock(hashtext('yardmaster:' || $1::text), hashtext(s.id)))`;

const FIND_DEAD = sql(`SELECT s.id FROM servers s WHERE s.id <> $2 AND ${DEAD}`);

const DROP = sql(`DELETE FROM servers s WHERE s.id = ANY($2::text[]) AND ${DEAD} RETURNING s.id`);

const LEAVE = sql("DELETE FROM servers WHERE id = $1");

const OWNED_BY = sql(`
SELECT * FROM tasks WHERE status IN ('in_progress', 'waiting') AND owner = ANY($1::text[])
ORDER BY id`);

// Owned by no live row; in-progress attempts owned by nobody were claimed by a server from
// before owners existed.
const ORPHANED = sql(`
SELECT * FROM tasks t WHERE status IN ('in_progress', 'waiting')
  AND ((owner IS NULL AND status = 'in_progress')
    OR (owner IS NOT NULL AND NOT EXISTS (SELECT 1 FROM servers s WHERE s.id = t.owner)))
ORDER BY id`);

export async function joinServer(
  db: Db,
  server: { id: string; host: string; pid: number; url: string | null },
  leaseMs: number,
): Promise<void> {
  await db.run(JOIN, [server.id, server.host, server.pid, server.url, leaseMs]);
}

export async function renewServer(db: Db, id: string, leaseMs: number): Promise<boolean> {
  return (await db.run(RENEW, [id, leaseMs])).count === 1;
}

export async function liveServers(db: Db): Promise<ServerRecord[]> {
  return (await rows(db, LIVE)).map((r) => ({
    id: r.id,
    host: r.host,
    pid: r.pid,
    url: r.url,
    started: Math.round(r.started),
    heartbeat: Math.round(r.heartbeat),
    lease_until: Math.round(r.lease_until),
  }));
}

export async function deadServers(db: Db, schema: string, self: string): Promise<string[]> {
  return (await rows(db, FIND_DEAD, [schema, self])).map((r) => r.id);
}

export async function dropServers(
  db: Db,
  schema: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  return (await rows(db, DROP, [schema, [...ids]])).map((r) => r.id);
}

export async function leaveServer(db: Db, id: string): Promise<void> {
  await db.run(LEAVE, [id]);
}

export async function orphanedTasks(
  db: Db,
  owners: readonly string[] | null,
): Promise<TaskRecord[]> {
  const found =
    owners === null ? await rows(db, ORPHANED) : await rows(db, OWNED_BY, [[...owners]]);
  return found.map(toTask);
}
