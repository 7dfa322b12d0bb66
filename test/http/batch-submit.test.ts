// POST /api/workflows/{name}/runs/batch on a real `yardmaster serve`, on each store (SQLite, and
// PostgreSQL when the test run has one): every run queued in one transaction, in order, each
// with its own `run.created`; any refused item (a title, an input that misfits the start node's
// schema), first, middle or last, queues none, stores and publishes no event, and names the
// item's index; the size bounds; the Idempotency-Key refused; an unknown workflow; and the runs
// it made run to the end like single submits.
import type { ChildProcess } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, request } from "../support/http-client.ts";
import { dropSchemas, freshSchema, postgres, withSchema } from "../support/postgres.ts";
import { killAll, type Served, serve } from "../support/serve.ts";
import { FLOW_ROW, flowFolder } from "../support/serve-folders.ts";
import { openStream } from "../support/sse.ts";
import { eventually } from "../support/wait.ts";

const STORES = [
  { kind: "sqlite", skip: false },
  { kind: "postgres", skip: postgres.url === null },
] as const;

for (const { kind, skip } of STORES) {
  describe.skipIf(skip)(`batch submit on ${kind}`, { timeout: 60_000 }, () => {
    batchSuite(kind);
  });
}

function batchSuite(kind: "sqlite" | "postgres"): void {
  let dir: string;
  let served: Served;
  const children: ChildProcess[] = [];
  const schema = freshSchema("batch");

  beforeAll(async () => {
    const rows = `${FLOW_ROW}[workflows.typed]\ntarget = "typed.ts:typed"\n`;
    dir = flowFolder("ym-batch-", "", rows);
    writeFileSync(
      join(dir, "typed.ts"),
      `import { workflow } from "yardmaster";
import { z } from "zod";
export const typed = workflow("typed");
typed.node(
  { start: true, input: z.object({ n: z.number().int() }) },
  async function only({}, run) { return run.input.n * 2; },
);
`,
    );
    const store = kind === "postgres" ? withSchema(postgres.url!, schema) : undefined;
    served = await serve({ dir, children, store });
  }, 60_000);

  afterAll(async () => {
    killAll(children);
    rmSync(dir, { recursive: true, force: true });
    if (kind === "postgres") await dropSchemas([schema]);
  });

  const batch = (body: unknown, workflow = "flow") =>
    request(served.url, "POST", `/api/workflows/${workflow}/runs/batch`, body);

  const runIds = async () =>
    ((await call(served.url, "/api/runs")).body as Array<{ id: string }>).map((r) => r.id);

  it("queues every run in order, each with its run.created, and they all complete", async () => {
    const before = await runIds();
    const stream = await openStream(`${served.url}/api/events?names=run.created`);
    try {
      const items = Array.from({ length: 25 }, (_, i) => ({
        title: `b${i}`,
        description: `d${i}`,
      }));
      const answer = await batch(items);
      expect(answer.status).toBe(201);
      expect(answer.body).toHaveLength(25);
      for (const item of answer.body) expect(Object.keys(item)).toStrictEqual(["run_id"]);
      const ids: string[] = answer.body.map((c: { run_id: string }) => c.run_id);
      expect(new Set(ids).size).toBe(25);
      // The dispatch order (the list's order) is the array's order, after every earlier run.
      expect(await runIds()).toStrictEqual([...before, ...ids]);
      const created = await eventually(() => {
        const mine = stream.events().filter((e) => ids.includes(e.run_id ?? ""));
        return mine.length === 25 ? mine : undefined;
      }, "25 run.created events");
      expect(created.map((e) => e.run_id)).toStrictEqual(ids);
      expect(created.map((e) => e.data.title)).toStrictEqual(items.map((i) => i.title));
      for (const e of created) expect(e.data.workflow).toBe("flow");
      const detail = await call(served.url, `/api/runs/${ids[7]}`);
      expect(detail.body.title).toBe("b7");
      expect(detail.body.description).toBe("d7");
      await eventually(async () => {
        const runs = (await call(served.url, "/api/runs?workflow=flow")).body as Array<{
          id: string;
          status: string;
        }>;
        const done = runs.filter((r) => ids.includes(r.id) && r.status === "completed");
        return done.length === 25 || undefined;
      }, "the 25 runs completed");
    } finally {
      stream.close();
    }
  });

  it("queues none when one item's input misfits, naming the item's index", async () => {
    const before = await runIds();
    const answer = await batch(
      [
        { title: "ok", input: { n: 1 } },
        { title: "bad", input: { n: "x" } },
        { title: "ok2", input: { n: 3 } },
      ],
      "typed",
    );
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe("validation");
    expect(answer.body.errors.length).toBeGreaterThan(0);
    for (const issue of answer.body.errors)
      expect(issue.loc.slice(0, 3)).toStrictEqual(["body", 1, "input"]);
    expect(await runIds()).toStrictEqual(before);
    // The same batch, fixed, is queued whole and the start node reads each input.
    const fixed = await batch(
      [
        { title: "ok", input: { n: 1 } },
        { title: "good", input: { n: 2 } },
        { title: "ok2", input: { n: 3 } },
      ],
      "typed",
    );
    expect(fixed.status).toBe(201);
    const second = await call(served.url, `/api/runs/${fixed.body[1].run_id}`);
    expect(second.body.input).toStrictEqual({ n: 2 });
  });

  // A refused item anywhere in the array: nothing is queued, and no event is stored or published
  // (a stream replaying from before the batch sees the next run's events and nothing between).
  for (const at of [0, 4, 9]) {
    it(`queues none and emits no event when item ${at} of 10 is refused`, async () => {
      const before = await runIds();
      const stream = await openStream(`${served.url}/api/events?names=run.created,task.enqueued`);
      try {
        const items = Array.from({ length: 10 }, (_, i) =>
          i === at ? { title: "" } : { title: `r${i}` },
        );
        const answer = await batch(items);
        expect(answer.status).toBe(422);
        expect(answer.body.code).toBe("validation");
        expect(answer.body.errors.map((e: { loc: unknown[] }) => e.loc)).toStrictEqual([
          ["body", at, "title"],
        ]);
        expect(await runIds()).toStrictEqual(before);
        const marker = await request(served.url, "POST", "/api/workflows/flow/runs", {
          title: "marker",
        });
        expect(marker.status).toBe(201);
        await stream.waitFor("the marker's run.created", (e) => e.run_id === marker.body.run_id);
        // Earlier tests' runs may still enqueue their next steps; no other run may appear.
        const fresh = stream.events().filter((e) => !before.includes(e.run_id ?? ""));
        expect(new Set(fresh.map((e) => e.run_id))).toStrictEqual(new Set([marker.body.run_id]));
      } finally {
        stream.close();
      }
    });
  }

  it("queues none when one item's body misfits the schema (a missing title)", async () => {
    const before = await runIds();
    const answer = await batch([{ title: "a" }, { title: "b" }, { description: "no title" }]);
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe("validation");
    expect(answer.body.errors.map((e: { loc: unknown[] }) => e.loc)).toContainEqual([
      "body",
      2,
      "title",
    ]);
    expect(await runIds()).toStrictEqual(before);
  });

  it("refuses an empty array, more than 1,000 runs, and a body that is not an array", async () => {
    const before = await runIds();
    const empty = await batch([]);
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].loc).toStrictEqual(["body"]);
    const tooMany = await batch(Array.from({ length: 1001 }, (_, i) => ({ title: `x${i}` })));
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors[0].loc).toStrictEqual(["body"]);
    const single = await batch({ title: "one" });
    expect(single.status).toBe(422);
    expect(await runIds()).toStrictEqual(before);
    const max = await batch(Array.from({ length: 1000 }, (_, i) => ({ title: `m${i}` })));
    expect(max.status).toBe(201);
    expect(max.body).toHaveLength(1000);
  });

  it("refuses an Idempotency-Key, queuing nothing: a batch is not deduplicated", async () => {
    const before = await runIds();
    const answer = await request(
      served.url,
      "POST",
      "/api/workflows/flow/runs/batch",
      [{ title: "k" }],
      { "idempotency-key": "batch-1" },
    );
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].loc).toStrictEqual(["header", "idempotency-key"]);
    expect(await runIds()).toStrictEqual(before);
  });

  it("answers 404 unknown_workflow for a workflow that is not registered", async () => {
    const answer = await batch([{ title: "a" }], "nope");
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe("unknown_workflow");
  });
}
