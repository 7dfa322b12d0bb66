// Steering runs and tasks from the command line against a real server: pause, resume, cancel,
// delete, move-run, rerun, retry, move and set-status, with their refusals as exit 1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestServer, type TestServer } from "../support/server-harness.ts";
import { at } from "./client-kit.ts";

let server: TestServer;
let ym: ReturnType<typeof at>;

beforeAll(async () => {
  server = await startTestServer();
  ym = at(server.url);
});
afterAll(() => server.close());

const getRun = async (id: string) => (await server.call("GET", `/api/runs/${id}`)).body;

async function submitted(title: string, wait = false, workflow = "chain"): Promise<string> {
  const result = await ym("submit", workflow, "--title", title, ...(wait ? ["--wait"] : []));
  expect(result.code).toBe(0);
  return result.lines.at(-1)!;
}

/** A run whose first node sleeps until cancelled, once it has started. */
async function sleepingRun(): Promise<string> {
  const id = await submitted("sleep:60000");
  await eventually(async () => (await getRun(id)).status === "running", "run started");
  return id;
}

describe("steering a run", () => {
  it("pauses, resumes and cancels a running run; a second cancel exits 1", async () => {
    const id = await sleepingRun();
    expect((await ym("pause", id)).out).toBe(`Run ${id} paused.`);
    expect((await getRun(id)).status).toBe("paused");
    const resumed = await ym("resume", id, "--json");
    expect(JSON.parse(resumed.out)).toMatchObject({ ok: true });
    expect((await getRun(id)).status).not.toBe("paused");
    const cancelled = await ym("cancel", id);
    expect(cancelled.code).toBe(0);
    expect(cancelled.out).toMatch(new RegExp(`^Run ${id} cancelled: .*1`));
    expect((await getRun(id)).status).toBe("cancelled");
    const again = await ym("cancel", id);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^yardmaster cancel: .+ \[409 conflict\]$/);
    const resumeEnded = await ym("resume", id);
    expect(resumeEnded.code).toBe(1);
  });

  it("deletes a run; reading it afterwards exits 1", async () => {
    const id = await submitted("to delete", true);
    const deleted = await ym("delete", id);
    expect(deleted).toMatchObject({ code: 0, out: `Run ${id} deleted.` });
    expect((await ym("show", id)).code).toBe(1);
    expect((await ym("delete", id)).err).toContain("[404 not_found]");
  });

  it("moves a run in the dispatch list by index, up and down", async () => {
    const ids = [
      await submitted("a", true),
      await submitted("b", true),
      await submitted("c", true),
    ];
    const position = async (id: string) => (await getRun(id)).position as number;
    const last = await position(ids[2]);
    const top = await ym("move-run", ids[2], "--index", "0");
    expect(top.out).toBe(`Run ${ids[2]} is at position 1.`);
    expect(await position(ids[2])).toBe(1);
    const down = await ym("move-run", ids[2], "--down", "--json");
    expect(JSON.parse(down.out)).toEqual({ position: 2 });
    expect((await ym("move-run", ids[2], "--up")).out).toContain("position 1.");
    expect(await position(ids[2])).toBeLessThan(last);
    // A negative index goes to the API, which clamps it to the top.
    await ym("move-run", ids[2], "--down");
    const clamped = await ym("move-run", ids[2], "--index", "-5");
    expect([clamped.code, clamped.out]).toEqual([0, `Run ${ids[2]} is at position 1.`]);
    expect((await ym("move-run", ids[2], "--index", "1.5")).err).toContain(
      "--index expects an integer, got 1.5",
    );
    const both = await ym("move-run", ids[2], "--up", "--index", "1");
    expect(both.code).toBe(2);
    expect(both.err).toContain("exactly one of --index N, --up, --down");
  });
});

describe("steering tasks", () => {
  it("reruns a node of an ended run as a fresh task", async () => {
    const id = await submitted("rerun me", true);
    const result = await ym("rerun", id, "second");
    expect(result.code).toBe(0);
    const taskId = Number(/^Task #(\d+) enqueued/.exec(result.out)?.[1]);
    const task = (await server.call("GET", `/api/tasks/${taskId}`)).body;
    expect(task).toMatchObject({ node: "second", run_id: id });
    const json = await ym("rerun", id, "third", "--json");
    expect(JSON.parse(json.out)).toEqual({ task_id: expect.any(Number) });
    expect((await ym("rerun", id, "nowhere")).code).toBe(1);
  });

  it("retries a stopped task, and refuses one still going with exit 1", async () => {
    const failed = await ym("submit", "chain", "--title", "fail", "--wait");
    expect(failed.code).toBe(1);
    const task = (await getRun(failed.lines.at(-1)!)).tasks[0];
    const retried = await ym("retry", String(task.id));
    expect(retried.out).toMatch(
      new RegExp(`^Task #\\d+ enqueued: the next attempt of task #${task.id}\\.$`),
    );
    const busy = (await getRun(await sleepingRun())).tasks[0];
    const refused = await ym("retry", String(busy.id));
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("[409 conflict]");
    expect((await ym("retry", "abc")).code).toBe(2);
  });

  it("moves a task to another node, and refuses a move into a join", async () => {
    const runId = await sleepingRun();
    const task = (await getRun(runId)).tasks[0];
    const moved = await ym("move", String(task.id), "third");
    expect(moved.out).toMatch(
      new RegExp(`^Task #${task.id} cancelled .* at third as task #\\d+\\.$`),
    );
    const fanRun = await submitted("x,y", true, "fan");
    const split = (await getRun(fanRun)).tasks[0];
    const refused = await ym("move", String(split.id), "gather");
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("[409 conflict]");
  });

  it("sets a task's status, and refuses a status operators may not write", async () => {
    const runId = await sleepingRun();
    const task = (await getRun(runId)).tasks[0];
    const result = await ym("set-status", String(task.id), "cancelled");
    expect(result.out).toMatch(new RegExp(`^Task #${task.id} set to cancelled`));
    expect((await server.call("GET", `/api/tasks/${task.id}`)).body.status).toBe("cancelled");
    const json = await ym("set-status", String(task.id), "dead_letter", "--json");
    expect(JSON.parse(json.out)).toMatchObject({ ok: true });
    const bad = await ym("set-status", String(task.id), "done");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("STATUS must be one of ready, cancelled, dead_letter");
  });
});
