// Vitest global setup: one throwaway PostgreSQL cluster for the whole run (postgres-cluster.ts),
// its superuser URL handed to the test files as `inject("postgres")`. With
// YARDMASTER_TEST_POSTGRES_URL set, that server is used instead and nothing is started. Without
// PostgreSQL binaries the Postgres tests are skipped with the reason printed, except under CI,
// where that is an error: CI must run them.
import type { TestProject } from "vitest/node";
import { findPostgresBin, startPostgresCluster } from "./postgres-cluster.ts";

export interface PostgresTarget {
  /** Superuser URL, or null when the Postgres tests are skipped. */
  url: string | null;
  /** Why they are skipped. */
  reason: string;
  /** Whether the server is our own cluster, with its password-only role (PASSWORD_ROLE). */
  ownCluster: boolean;
}

declare module "vitest" {
  export interface ProvidedContext {
    postgres: PostgresTarget;
  }
}

const MISSING = "no PostgreSQL binaries found (/usr/lib/postgresql/*/bin, pg_config --bindir)";

export default async function setup(project: TestProject) {
  const external = process.env.YARDMASTER_TEST_POSTGRES_URL;
  if (external) {
    project.provide("postgres", { url: external, reason: "", ownCluster: false });
    return;
  }
  const bin = await findPostgresBin();
  if (bin === null) {
    if (process.env.CI) {
      throw new Error(`CI must run the PostgreSQL tests, but ${MISSING}: install postgresql`);
    }
    console.warn(`\n[postgres] skipping the PostgreSQL tests: ${MISSING}.\n`);
    project.provide("postgres", { url: null, reason: MISSING, ownCluster: false });
    return;
  }
  const cluster = await startPostgresCluster(bin);
  project.provide("postgres", { url: cluster.url, reason: "", ownCluster: true });
  return () => cluster.stop();
}
