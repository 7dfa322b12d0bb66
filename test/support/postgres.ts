// What the Postgres test files share: the server the global setup started (or the reason the
// tests are skipped), fresh schemas to open stores in, and dropping them afterwards.
import pg from "pg";
import { inject } from "vitest";

export const postgres = inject("postgres");

/** A name for a schema no other test uses. */
export function freshSchema(prefix = "t"): string {
  const random = Math.random().toString(36).slice(2, 8);
  return `${prefix}_${process.pid}_${random}`;
}

/** `base` with `?schema=` set. */
export function withSchema(base: string, schema: string): string {
  const url = new URL(base);
  url.searchParams.set("schema", schema);
  return url.toString();
}

/** Runs `fn` on a plain superuser connection (checks that go around the store). */
export async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgres.url! });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function dropSchemas(names: readonly string[]): Promise<void> {
  if (postgres.url === null || names.length === 0) return;
  await withAdmin(async (client) => {
    for (const name of names) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  });
}
