// Versioned schema migrations. The applied version lives in `PRAGMA user_version`, which SQLite
// writes inside the transaction, so a step and its version bump commit together. Steps run
// under BEGIN IMMEDIATE and re-check the version, so two processes opening the same new file
// cannot both apply a step.
import type Database from "better-sqlite3";
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
import { SCHEMA_V12 } from "./schema-v12.ts";

export type { Migration };

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "initial schema", sql: SCHEMA_V1 },
  { version: 2, name: "status index of going attempts only", sql: SCHEMA_V2 },
  { version: 3, name: "results of agent calls", sql: SCHEMA_V3 },
  { version: 4, name: "index of open runs by status", sql: SCHEMA_V4 },
  { version: 5, name: "idempotency keys of submits", sql: SCHEMA_V5 },
  { version: 6, name: "run input", sql: SCHEMA_V6 },
  { version: 7, name: "error stacks of failed attempts", sql: SCHEMA_V7 },
  { version: 8, name: "timers: not-before, sleeps", sql: SCHEMA_V8 },
  { version: 9, name: "schedules and their fires", sql: SCHEMA_V9 },
  { version: 10, name: "operators of log entries and answers", sql: SCHEMA_V10 },
  { version: 11, name: "indexes of runs by created and updated", sql: SCHEMA_V11 },
  { version: 12, name: "no index of active runs in list order", sql: SCHEMA_V12 },
];

export function schemaVersion(db: Database.Database): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/** Applies the steps newer than the file's version; answers the versions applied. */
export function migrate(db: Database.Database, steps: readonly Migration[] = MIGRATIONS): number[] {
  steps.forEach((step, i) => {
    if (step.version !== i + 1) throw new Error(`migration ${step.name} must be version ${i + 1}`);
  });
  const latest = steps.length;
  const current = schemaVersion(db);
  if (current > latest) {
    throw new Error(`store schema version ${current} is newer than this build (${latest})`);
  }
  const applied: number[] = [];
  for (const step of steps) {
    const apply = db.transaction(() => {
      if (schemaVersion(db) >= step.version) return;
      db.exec(step.sql);
      // PRAGMA takes no bound parameters; the version is a checked integer.
      db.pragma(`user_version = ${step.version}`);
      applied.push(step.version);
    });
    apply.immediate();
  }
  return applied;
}
