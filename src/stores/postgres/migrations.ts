// Versioned schema migrations. Each applied step is a row of `schema_version` in the store's
// schema, written in the step's own transaction: PostgreSQL DDL is transactional, so a step and
// its row commit together or not at all. Steps run under an advisory lock on the schema's name
// and re-check the version, so two servers opening the same new schema cannot both apply one.
import type pg from "pg";
import type { Migration } from "../migration.ts";
import { SCHEMA_V1 } from "./schema-v1.ts";
import { SCHEMA_V2 } from "./schema-v2.ts";
import { SCHEMA_V3 } from "./schema-v3.ts";
import { SCHEMA_V4 } from "./schema-v4.ts";
import { SCHEMA_V5 } from "./schema-v5.ts";
import { SCHEMA_V6 } from "./schema-v6.ts";
import { SCHEMA_V7 } from "./schema-v7.ts";
import { SCHEMA_V8 } from "./schema-v8.ts";
import { SCHEMA_V9 } from "./schema-v9.ts";
import { SCHEMA_V10 } from "./schema-v10.ts";
import { SCHEMA_V11 } from "./schema-v11.ts";

export type { Migration };

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "initial schema", sql: SCHEMA_V1 },
  { version: 2, name: "results of agent calls", sql: SCHEMA_V2 },
  { version: 3, name: "index of open runs by status", sql: SCHEMA_V3 },
  { version: 4, name: "idempotency keys of submits", sql: SCHEMA_V4 },
  { version: 5, name: "run input", sql: SCHEMA_V5 },
  { version: 6, name: "error stacks of failed attempts", sql: SCHEMA_V6 },
  { version: 7, name: "timers: not-before, sleeps", sql: SCHEMA_V7 },
  { version: 8, name: "schedules and their fires", sql: SCHEMA_V8 },
  { version: 9, name: "servers and the owners of claims", sql: SCHEMA_V9 },
  { version: 10, name: "operators of log entries and answers", sql: SCHEMA_V10 },
  { version: 11, name: "indexes of runs by created and updated", sql: SCHEMA_V11 },
];

const VERSION_TABLE = `CREATE TABLE IF NOT EXISTS schema_version (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/** The schema's applied version, 0 when it has no `schema_version` table (or no schema). */
export async function schemaVersion(client: pg.ClientBase, schema: string): Promise<number> {
  const table = await client.query("SELECT to_regclass($1) AS t", [`"${schema}".schema_version`]);
  if (table.rows[0].t === null) return 0;
  const { rows } = await client.query(
    `SELECT COALESCE(MAX(version), 0) AS v FROM "${schema}".schema_version`,
  );
  return Number(rows[0].v);
}

/** Inside a transaction: waits for other migrators, creates the schema if needed, enters it. */
async function enterSchema(client: pg.ClientBase, schema: string): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`yardmaster:${schema}`]);
  // CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even when the schema exists.
  const found = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
  if (found.rowCount === 0) await client.query(`CREATE SCHEMA "${schema}"`);
  await client.query(`SET LOCAL search_path TO "${schema}"`);
  await client.query(VERSION_TABLE);
}

async function applyStep(client: pg.ClientBase, schema: string, step: Migration) {
  await client.query("BEGIN");
  try {
    await enterSchema(client, schema);
    if ((await schemaVersion(client, schema)) >= step.version) {
      await client.query("COMMIT");
      return false;
    }
    await client.query(step.sql);
    await client.query("INSERT INTO schema_version (version, name) VALUES ($1, $2)", [
      step.version,
      step.name,
    ]);
    await client.query("COMMIT");
    return true;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  }
}

/** Applies the steps newer than the schema's version; answers the versions applied. */
export async function migrate(
  client: pg.ClientBase,
  schema: string,
  steps: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  steps.forEach((step, i) => {
    if (step.version !== i + 1) throw new Error(`migration ${step.name} must be version ${i + 1}`);
  });
  const current = await schemaVersion(client, schema);
  if (current > steps.length) {
    throw new Error(`store schema version ${current} is newer than this build (${steps.length})`);
  }
  const applied: number[] = [];
  for (const step of steps.slice(current)) {
    if (await applyStep(client, schema, step)) applied.push(step.version);
  }
  return applied;
}
