// Views over a real server, field by field as http-api.md "Resources and their fields" reads.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventOut, submitTo, untilEvent } from "../support/run-steps.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const submit = (workflow: string, title: string) => submitTo(s, workflow, title);
const until = (runId: string, match: (e: EventOut) => boolean) => untilEvent(s, runId, match);

describe("GraphEdge.traversed", () => {
  it("counts every join.arrived on a join edge, late ones included", async () => {
    const runId = await submit("fan", "a,b");
    await until(runId, (e) => e.name === "run.completed");
    const rerun = await s.call("POST", `/api/runs/${runId}/rerun`, { node: "part" });
    expect(rerun.status).toBe(200);
    await until(runId, (e) => e.name === "join.arrived" && e.data.late === true);
    const graph = await s.call("GET", `/api/runs/${runId}/graph`);
    expect(graph.body.edges).toEqual([
      { from: "split", to: "part", kind: "forward", traversed: 2 },
      { from: "part", to: "gather", kind: "join", traversed: 3 },
    ]);
  });
});
