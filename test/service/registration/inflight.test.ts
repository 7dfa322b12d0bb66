// Registration while runs are mid-flight: a replacement lets the running attempt finish on its
// old body and the next task use the new one; a removal stops in-flight attempts where they
// were (an in-progress one back to ready, a waiting one on its request), nothing of the workflow
// is dispatched, and registering it again runs them; a
// pool move waits until no attempt is in flight.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/server-harness.ts";
import {
  gatedChain,
  runIn,
  storedEvents,
  submit,
  taskIn,
  writeWorkflow,
} from "../../support/workflow-files.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(
    [
      "[server]",
      'host = "127.0.0.1"',
      "port = 0",
      "[pools.default]",
      "capacity = 4",
      "[pools.solo]",
      "capacity = 1",
      "[pools.other]",
      "capacity = 2",
      "",
    ].join("\n"),
  );
});
afterAll(async () => {
  await s?.close();
});

let gates = 0;
/** A fresh gate path; `open` creates the file, which lets gated first nodes through. */
function gate() {
  const file = path.join(s.dir, `gate-${++gates}`);
  return { file, open: () => writeFileSync(file, "open") };
}

describe("replacing a workflow mid-run", () => {
  it("lets the running attempt finish on the old body; the next task runs the new one", async () => {
    writeWorkflow(s.dir, "swap.ts", gatedChain("swap", "v1"));
    expect((await s.call("POST", "/api/workflows", { target: "swap.ts:swap" })).status).toBe(201);
    const g = gate();
    const run = await submit(s, "swap", "mid-flight", g.file);
    await taskIn(s, run, "first", "in_progress");
    writeWorkflow(s.dir, "swap.ts", gatedChain("swap", "v2"));
    const replaced = await s.call("PUT", "/api/workflows/swap", {});
    expect(replaced.status).toBe(200);
    g.open();
    const done = await runIn(s, run, ["completed"]);
    expect(done.output).toBe("v1-first|v2-second");
    // A run started after the replacement is v2 throughout.
    const later = await submit(s, "swap", "after", g.file);
    expect((await runIn(s, later, ["completed"])).output).toBe("v2-first|v2-second");
  });
});

describe("removing a workflow with attempts in flight", () => {
  it("stops them, puts in-progress ones back to ready, and runs them on re-registration", async () => {
    writeWorkflow(s.dir, "gone.ts", gatedChain("gone", "g"));
    writeWorkflow(s.dir, "filler.ts", gatedChain("filler", "f"));
    const body = { target: "gone.ts:gone", pool: "solo" };
    expect((await s.call("POST", "/api/workflows", body)).status).toBe(201);
    const g = gate();
    const first = await submit(s, "gone", "held", g.file);
    const held = await taskIn(s, first, "first", "in_progress");
    const queued = await submit(s, "gone", "queued behind", g.file);
    await taskIn(s, queued, "first", "ready");

    const removed = await s.call("DELETE", "/api/workflows/gone");
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ workflow: "gone", task_ids: [held.id] });
    expect((await storedEvents(s, "workflow.unregistered")).at(-1)?.data).toEqual({
      workflow: "gone",
      task_ids: [held.id],
      requeued: [held.id],
    });
    // Nothing is left in progress with no body running it, and health counts agree.
    const afterRemoval = (await s.call("GET", `/api/runs/${first}`)).body;
    expect(afterRemoval.tasks.map((t: any) => [t.id, t.status, t.started])).toEqual([
      [held.id, "ready", null],
    ]);
    expect((await s.call("GET", "/api/health")).body.tasks_in_progress).toBe(0);
    const listed = await s.call("GET", "/api/runs?workflow=gone");
    expect(listed.body.map((r: any) => [r.id, r.unregistered])).toEqual([
      [first, true],
      [queued, true],
    ]);

    // The solo slot is free again. A run of another workflow, queued after `queued`, gets it:
    // had `gone` still been dispatchable, its older ready task would have been claimed first.
    expect(
      (await s.call("POST", "/api/workflows", { ...body, target: "filler.ts:filler" })).status,
    ).toBe(201);
    const other = await submit(s, "filler", "takes the slot");
    await runIn(s, other, ["completed"]);
    const heldRun = (await s.call("GET", `/api/runs/${first}`)).body;
    expect(heldRun.tasks.map((t: any) => [t.id, t.status])).toEqual([[held.id, "ready"]]);
    const queuedRun = (await s.call("GET", `/api/runs/${queued}`)).body;
    expect(queuedRun.tasks.map((t: any) => t.status)).toEqual(["ready"]);

    const recoveredBefore = (await storedEvents(s, "engine.recovered")).length;
    const back = await s.call("POST", "/api/workflows", body);
    expect(back.status).toBe(201);
    // Nothing was orphaned, so nothing needs recovering.
    expect((await storedEvents(s, "engine.recovered")).length).toBe(recoveredBefore);
    g.open();
    const recovered = await runIn(s, first, ["completed"]);
    expect(recovered.output).toBe("g-first|g-second");
    expect(recovered.unregistered).toBeUndefined();
    // The interrupted attempt ran again as itself: same task, same attempt number.
    expect(recovered.tasks[0]).toMatchObject({ id: held.id, attempt: 1, status: "done" });
    expect((await runIn(s, queued, ["completed"])).output).toBe("g-first|g-second");
  });

  it("leaves a waiting attempt waiting; answering it lets the re-registered workflow finish", async () => {
    writeWorkflow(
      s.dir,
      "asks.ts",
      `import { workflow } from "YARDMASTER";
export const asks = workflow("asks");
asks.node({ start: true }, async function decide({ done }, _input: unknown, ctx) {
  return done(await ctx.ask({ prompt: "Go?", options: ["go", "stop"] }));
});
asks.node(async function done({}, choice: string) { return choice; });
`,
    );
    expect((await s.call("POST", "/api/workflows", { target: "asks.ts:asks" })).status).toBe(201);
    const run = await submit(s, "asks", "ask me");
    const waiting = await taskIn(s, run, "decide", "waiting");
    const removed = await s.call("DELETE", "/api/workflows/asks");
    expect(removed.body.task_ids).toEqual([waiting.id]);
    const [request] = (await s.call("GET", `/api/runs/${run}/requests`)).body;
    const answered = await s.call("POST", `/api/requests/${request.id}/answer`, {
      option_id: "go",
    });
    expect(answered.status).toBe(200);
    await taskIn(s, run, "decide", "ready");
    expect((await s.call("POST", "/api/workflows", { target: "asks.ts:asks" })).status).toBe(201);
    expect((await runIn(s, run, ["completed"])).output).toBe("go");
  });
});

describe("moving a workflow to another pool", () => {
  it("is refused with 409 while an attempt is in flight, and done once it finished", async () => {
    writeWorkflow(s.dir, "mover.ts", gatedChain("mover", "m"));
    expect((await s.call("POST", "/api/workflows", { target: "mover.ts:mover" })).status).toBe(201);
    const g = gate();
    const run = await submit(s, "mover", "busy", g.file);
    const busy = await taskIn(s, run, "first", "in_progress");
    const refused = await s.call("PUT", "/api/workflows/mover", { pool: "other" });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "conflict", task_ids: [busy.id] });
    // Replacing without a move is fine while it runs.
    expect((await s.call("PUT", "/api/workflows/mover", { pool: "default" })).status).toBe(200);
    g.open();
    await runIn(s, run, ["completed"]);
    const moved = await s.call("PUT", "/api/workflows/mover", { pool: "other" });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ pool: "other", capacity: 2 });
  });
});
