// Two engines on one PostgreSQL schema, as two servers would be: each publishes every committed
// event of both, in id order, once (stored events), and the events neither stores (`run.deleted`)
// reach the other too. Runs are deleted while both keep committing, so the table's ids have gaps
// (a deleted run's events go with it) that neither engine may wait on.
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/authoring/index.ts";
import type { EventRecord } from "../../src/engine/index.ts";
import { type Harness, startHarness } from "../support/engine-harness.ts";
import { dropSchemas, freshSchema, postgres, withSchema } from "../support/postgres.ts";

const skipped = postgres.url === null;
const title = (name: string) => (skipped ? `${name} (skipped: ${postgres.reason})` : name);

const schemas: string[] = [];
const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
afterAll(() => dropSchemas(schemas));

function quick() {
  const wf = workflow("quick");
  wf.node({ start: true }, async function one({ two }: any) {
    return two(1);
  });
  wf.node(async function two({}: any, n: number) {
    return n + 1;
  });
  return wf;
}

const stored = (events: EventRecord[]) => events.filter((e) => e.id !== null).map((e) => e.id!);

describe.skipIf(skipped)(title("events of two engines on one schema"), () => {
  it("each engine publishes both engines' events in id order, once, across deleted runs", async () => {
    const schema = freshSchema("seq");
    schemas.push(schema);
    const storeUrl = withSchema(postgres.url!, schema);
    const a = await startHarness({ storeUrl });
    open.push(a);
    const b = await startHarness({ storeUrl });
    open.push(b);
    for (const h of [a, b]) h.register(quick());
    expect(a.engine.cluster?.id).toBeTruthy();
    expect(a.engine.cluster?.id).not.toBe(b.engine.cluster?.id);

    // Submits on both at once; every third run, once completed, is deleted by the other engine.
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const h = i % 2 ? a : b;
        const { run_id } = await h.service.submitRun("quick", { title: `r${i}` });
        ids[i] = run_id;
        if (i % 3 !== 0) return;
        const other = i % 2 ? b : a;
        await other.waitEvent("run.completed", (e) => e.run_id === run_id);
        await other.service.deleteRun(run_id);
      }),
    );
    const deleted = ids.filter((_, i) => i % 3 === 0);
    // Both saw every run end or be deleted, whichever engine ran it.
    for (const h of [a, b]) {
      await h.waitFor(
        () =>
          ids.every(
            (id) => h.named("run.completed", id).length === 1 || h.named("run.deleted", id).length,
          ),
        "every run's end on each engine",
      );
      for (const id of deleted) {
        await h.waitFor(() => h.named("run.deleted", id).length === 1, `run.deleted ${id}`);
      }
    }
    // What the table still holds, each engine published; every stored id once, ascending.
    const table = (await a.store.listEvents({ after: 0 })).map((e) => e.id!);
    const last = table.at(-1)!;
    for (const h of [a, b]) {
      await h.waitFor(() => stored(h.events).includes(last), "the last event published");
      const seen = stored(h.events);
      expect([...seen].sort((x, y) => x - y)).toEqual(seen);
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of table) expect(seen).toContain(id);
    }
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });
});
