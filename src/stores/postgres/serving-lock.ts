// One serving process per schema, until several servers on one database are supported
// (docs/architecture.md): start-up recovery would otherwise take over the attempts another
// server is still running. A serving store holds a session-level advisory lock, keyed by the
// schema, on a connection of its own for as long as it is open (the writer's connection may be
// replaced, and a session lock dies with its session). PostgreSQL drops the lock when that
// session ends, so a crashed server leaves no stale lock behind.
import pg from "pg";
import type { Target } from "./connection.ts";

const TRY_LOCK = "SELECT pg_try_advisory_lock(hashtext($1)) AS held";

export class SchemaInUseError extends Error {
  constructor(target: Target) {
    super(
      `postgres store: schema "${target.schema}" of ${target.label} is in use by another ` +
        "Yardmaster server; stop that server first, or give this one a schema of its own (?schema=)",
    );
    this.name = "SchemaInUseError";
  }
}

/** Takes the lock or refuses at once; answers the connection that holds it. */
export async function holdServingLock(
  target: Target,
  connectTimeoutMs: number,
): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: target.connectionString,
    connectionTimeoutMillis: connectTimeoutMs,
    application_name: "yardmaster serving lock",
  });
  // A connection that breaks later loses the lock; nothing else depends on it, so its error
  // must not take the process down.
  client.on("error", () => {});
  await client.connect();
  try {
    const { rows } = await client.query(TRY_LOCK, [`yardmaster:${target.schema}:serving`]);
    if (rows[0]?.held === true) return client;
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  await client.end().catch(() => {});
  throw new SchemaInUseError(target);
}
