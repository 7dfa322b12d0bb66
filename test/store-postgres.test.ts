// The PostgreSQL store on a real server (the cluster test/support/postgres-setup.ts starts once
// per run): the shared contract, each test in a fresh schema, plus what only PostgreSQL has.
import { afterAll, describe } from "vitest";
import { openPostgresStore } from "../src/stores/postgres/index.ts";
import { storeContract } from "./store-contract.ts";
import { dropSchemas, freshSchema, postgres, withSchema } from "./support/postgres.ts";

const schemas: string[] = [];
function schemaUrl(prefix = "t"): string {
  const schema = freshSchema(prefix);
  schemas.push(schema);
  return withSchema(postgres.url!, schema);
}
afterAll(() => dropSchemas(schemas));

const title = postgres.url ? "postgres" : `postgres (skipped: ${postgres.reason})`;

describe.skipIf(postgres.url === null)(title, () => {
  storeContract("postgres", () => openPostgresStore(schemaUrl()));
});
