// The PostgreSQL store's pipelined writes (transaction.ts, `Db.write`): a write whose answer
// nobody reads is sent without waiting, the unit's later statements see it, and its failure is
// the unit's failure (rolled back alone when it shares a batch), never a silent loss.
import { afterAll, describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../../src/stores/postgres/index.ts";
import { dropSchemas, freshSchema, postgres, withSchema } from "../support/postgres.ts";
import { addRun, runInput } from "./contract/fixtures.ts";

const schemas: string[] = [];
const open: PostgresStore[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await dropSchemas(schemas);
});

async function store(): Promise<PostgresStore> {
  const schema = freshSchema("pipe");
  schemas.push(schema);
  const s = await openPostgresStore(withSchema(postgres.url!, schema));
  open.push(s);
  return s;
}

describe.skipIf(postgres.url === null)("postgres pipelined writes", () => {
  it("a later read in the unit sees a write sent without waiting", async () => {
    const s = await store();
    const run = await addRun(s);
    const updated = await s.transact(async (tx) => {
      await tx.touchRuns([run.id], 123_456);
      return (await tx.getRun(run.id))!.updated;
    });
    expect(updated).toBe(123_456);
  });

  it("a failed write fails its unit only, with its own error, in a shared batch", async () => {
    const s = await store();
    const run = await addRun(s);
    const bad = s.transact(async (tx) => {
      await tx.insertRun(runInput({ id: "pipe-gone" }));
      // not a bigint: PostgreSQL refuses it, after the callback has moved on
      await tx.touchRuns([run.id], "soon" as unknown as number);
      return "went on";
    });
    const good = s.transact((tx) => tx.insertRun(runInput({ id: "pipe-kept" })));
    await expect(bad).rejects.toThrow(/bigint/);
    await expect(good).resolves.toMatchObject({ id: "pipe-kept" });
    expect(await s.getRun("pipe-gone")).toBeNull();
    expect(await s.getRun("pipe-kept")).not.toBeNull();
  });

  it("a lone unit whose write failed is rolled back", async () => {
    const s = await store();
    const run = await addRun(s);
    await expect(
      s.transact(async (tx) => {
        await tx.insertRun(runInput({ id: "pipe-alone" }));
        await tx.touchRuns([run.id], "soon" as unknown as number);
      }),
    ).rejects.toThrow(/bigint/);
    expect(await s.getRun("pipe-alone")).toBeNull();
  });
});
