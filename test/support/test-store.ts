// Which store the harnesses put their engines and servers on. By default a SQLite file in the
// test's own folder. With YARDMASTER_TEST_STORE=postgres they use the test run's PostgreSQL
// server instead (test/support/postgres-setup.ts), one schema per folder, so a server restarted
// on the same folder finds its data: the engine tests, the in-process servers and the
// `yardmaster serve` processes (serve.ts) then check the Postgres store end to end
// (`YARDMASTER_TEST_STORE=postgres npx vitest run test/engine`).
import { createHash } from "node:crypto";
import { join } from "node:path";
import { postgres, withSchema } from "./postgres.ts";

export function testStoreUrl(dir: string, file = "store.db"): string {
  if (process.env.YARDMASTER_TEST_STORE !== "postgres") return `sqlite:${join(dir, file)}`;
  if (postgres.url === null) throw new Error(`YARDMASTER_TEST_STORE=postgres: ${postgres.reason}`);
  const schema = `h_${createHash("sha1").update(join(dir, file)).digest("hex").slice(0, 16)}`;
  return withSchema(postgres.url, schema);
}
