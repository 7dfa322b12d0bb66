// Failures on a real server: an attempt keeps the stack of the error its body threw (where it
// threw), and a workflow's failures are grouped by message.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { runIn, submit, writeWorkflow } from "../support/workflow-files.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  writeWorkflow(
    s.dir,
    "breaks.ts",
    `import { NonRetryable, workflow } from "YARDMASTER";
export const breaks = workflow("breaks");
breaks.node({ start: true }, async function work({}, input: { title: string }) {
  if (input.title === "string") throw "a plain string";
  throw new NonRetryable(input.title.startsWith("a") ? "kind A" : "kind B");
});
`,
  );
  expect((await s.call("POST", "/api/workflows", { target: "breaks.ts:breaks" })).status).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

describe("an attempt's error stack", () => {
  it("keeps where the body threw, beside the unchanged one-line error", async () => {
    const run = await runIn(s, await submit(s, "breaks", "a1"), ["failed"]);
    const task = run.tasks[0];
    expect(task.error).toBe("NonRetryable: kind A");
    expect(task).not.toHaveProperty("error_stack");
    const r = await s.call("GET", `/api/tasks/${task.id}/error`);
    expect(r.status).toBe(200);
    expect(r.body.task_id).toBe(task.id);
    expect(r.body.error).toBe("NonRetryable: kind A");
    expect(r.body.stack).toMatch(/^NonRetryable: kind A\n/);
    // Where it threw: the workflow's module (its line as the loader compiled it).
    expect(r.body.stack).toMatch(/at Object\.work .*\/breaks\.ts:\d+:\d+\)/);

    const plain = await runIn(s, await submit(s, "breaks", "string"), ["failed"]);
    const none = (await s.call("GET", `/api/tasks/${plain.tasks[0].id}/error`)).body;
    expect(none).toMatchObject({ error: "a plain string", stack: null });
    expect((await s.call("GET", "/api/tasks/999999/error")).status).toBe(404);
  });
});

describe("GET /api/workflows/{name}/failures", () => {
  it("groups the failed attempts by message, most frequent first", async () => {
    for (const title of ["a2", "a3", "b1"])
      await runIn(s, await submit(s, "breaks", title), ["failed"]);
    const r = await s.call("GET", "/api/workflows/breaks/failures");
    expect(r.status).toBe(200);
    expect(r.body.map((g: any) => [g.message, g.count])).toEqual([
      ["NonRetryable: kind A", 3],
      ["NonRetryable: kind B", 1],
      ["a plain string", 1],
    ]);
    const runs = (await s.call("GET", "/api/runs?workflow=breaks")).body;
    const b1 = runs.find((x: any) => x.title === "b1");
    expect(r.body[1]).toMatchObject({ last_run_id: b1.id, last_at: expect.any(String) });
    expect((await s.call("GET", "/api/workflows/chain/failures")).body).toEqual([]);
    expect((await s.call("GET", "/api/workflows/nope/failures")).status).toBe(404);
  });
});
