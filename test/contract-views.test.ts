// Views over a real server, field by field as http-api.md "Resources and their fields" reads.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestServer, type TestServer } from "./support/server-harness.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

async function submit(workflow: string, title: string): Promise<string> {
  const r = await s.call("POST", `/api/workflows/${workflow}/runs`, { title });
  expect(r.status).toBe(201);
  return r.body.run_id;
}

async function untilEvent(runId: string, match: (e: { name: string; data: any }) => boolean) {
  return eventually(async () => {
    const page = await s.call("GET", `/api/runs/${runId}/events?limit=1000`);
    return (page.body as { name: string; data: any }[]).find(match);
  }, `an event of run ${runId}`);
}

describe("GraphEdge.traversed", () => {
  it("counts every join.arrived on a join edge, late ones included", async () => {
    const runId = await submit("fan", "a,b");
    await untilEvent(runId, (e) => e.name === "run.completed");
    const rerun = await s.call("POST", `/api/runs/${runId}/rerun`, { node: "part" });
    expect(rerun.status).toBe(200);
    await untilEvent(runId, (e) => e.name === "join.arrived" && e.data.late === true);
    const graph = await s.call("GET", `/api/runs/${runId}/graph`);
    expect(graph.body.edges).toEqual([
      { from: "split", to: "part", kind: "forward", traversed: 2 },
      { from: "part", to: "gather", kind: "join", traversed: 3 },
    ]);
  });
});
