// Finding runs over HTTP (GET /api/runs): `q` by title or id prefix, `ended`, `created_after`
// and `created_before`, `sort` with its cursor (a batch of runs shares one instant), the
// refusals of bad values, and `waiting_on_people` in the list, the run and the counts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { eventually } from "../support/wait.ts";

let s: TestServer;
type Run = { id: string; title: string; status: string; created: string; updated: string };
const chains: string[] = [];
let batch: string[] = [];
let asked: string;

const list = async (query: string): Promise<Run[]> => {
  const res = await s.call("GET", `/api/runs?${query}`);
  expect(res.status, query).toBe(200);
  return res.body;
};
const ids = async (query: string) => (await list(query)).map((r) => r.id);

beforeAll(async () => {
  s = await startTestServer();
  for (const title of ["Alpha one", "Beta two", "alpha three"]) {
    const res = await s.call("POST", "/api/workflows/chain/runs", { title });
    chains.push(res.body.run_id);
  }
  const res = await s.call(
    "POST",
    "/api/workflows/chain/runs/batch",
    Array.from({ length: 30 }, (_, i) => ({ title: `Batch ${i}` })),
  );
  expect(res.status).toBe(201);
  batch = res.body.map((r: { run_id: string }) => r.run_id);
  asked = (await s.call("POST", "/api/workflows/asker/runs", { title: "Ask me" })).body.run_id;
  await eventually(
    async () => {
      const counts = (await s.call("GET", "/api/runs/counts")).body;
      return counts.by_status.completed === 33 && counts.waiting_on_people === 1;
    },
    "33 chains completed and the asker waiting",
    20_000,
  );
}, 60_000);

afterAll(async () => {
  await s?.close();
});

describe("GET /api/runs: find", () => {
  it("q matches a title or an id's prefix, an exact id included", async () => {
    expect(await ids("q=alpha")).toEqual([chains[0], chains[2]]);
    expect(await ids(`q=${asked}`)).toEqual([asked]);
    const prefix = asked.slice(0, 6);
    expect(await ids(`q=${prefix}`)).toContain(asked);
    expect(await ids("q=no-such-thing")).toEqual([]);
  });

  it("ended splits the queue from the history", async () => {
    expect(await ids("ended=false")).toEqual([asked]);
    const ended = await list("ended=true");
    expect(ended).toHaveLength(33);
    expect(ended.every((r) => r.status === "completed")).toBe(true);
    expect(await ids("ended=true&status=running")).toEqual([]);
  });

  it("filters by creation range", async () => {
    const all = await list("sort=created");
    const batchCreated = all.find((r) => r.id === batch[0])!.created;
    const from = await ids(`created_after=${encodeURIComponent(batchCreated)}`);
    expect(from).toEqual([...batch, asked].filter((id) => from.includes(id)));
    expect(from).toEqual(expect.arrayContaining(batch));
    const before = await ids(`created_before=${encodeURIComponent(batchCreated)}`);
    expect(before.some((id) => batch.includes(id))).toBe(false);
    expect(before.length + from.length).toBe(34);
    // An offset other than Z names the same instant.
    const plus = new Date(Date.parse(batchCreated)).toISOString().replace("Z", "+00:00");
    expect(await ids(`created_after=${encodeURIComponent(plus)}`)).toEqual(from);
  });

  it("sorts newest first by created or updated and pages each sort by its cursor", async () => {
    for (const sort of ["created", "updated"] as const) {
      const whole = await list(`sort=${sort}`);
      expect(whole).toHaveLength(34);
      for (let i = 1; i < whole.length; i++) {
        expect(Date.parse(whole[i - 1]![sort]) >= Date.parse(whole[i]![sort])).toBe(true);
      }
      const seen: string[] = [];
      let path: string | null = `/api/runs?sort=${sort}&limit=7`;
      while (path !== null) {
        const res = await s.call("GET", path);
        expect(res.status).toBe(200);
        seen.push(...res.body.map((r: Run) => r.id));
        const link = res.headers.get("link");
        path = link === null ? null : link.slice(1, link.indexOf(">"));
      }
      expect(seen).toEqual(whole.map((r) => r.id));
    }
    // The batch shares one creation instant: its order is the id's, descending.
    const created = (await list("sort=created")).filter((r) => batch.includes(r.id));
    expect(new Set(created.map((r) => r.created)).size).toBe(1);
    expect(created.map((r) => r.id)).toEqual([...batch].sort().reverse());
  });

  it("refuses bad values in the documented error shape", async () => {
    for (const [query, name] of [
      ["created_after=yesterday", "created_after"],
      ["created_before=2026-11-01T00:00:00", "created_before"],
      ["created_after=2026-13-45T00:00:00Z", "created_after"],
      ["sort=oldest", "sort"],
      ["ended=maybe", "ended"],
    ]) {
      const res = await s.call("GET", `/api/runs?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.code).toBe("validation");
      expect(res.body.errors[0].loc).toEqual(["query", name]);
    }
    // A cursor pages the sort it was given for only.
    const first = await s.call("GET", "/api/runs?sort=created&limit=2");
    const cursor = first.headers.get("x-service-next-cursor")!;
    for (const query of [`cursor=${cursor}`, `sort=updated&cursor=${cursor}`]) {
      const res = await s.call("GET", `/api/runs?limit=2&${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.errors).toEqual([
        { loc: ["query", "cursor"], msg: "Invalid cursor", type: "value_error" },
      ]);
    }
    const positional = (await s.call("GET", "/api/runs?limit=2")).headers.get(
      "x-service-next-cursor",
    );
    const res = await s.call("GET", `/api/runs?sort=created&limit=2&cursor=${positional}`);
    expect(res.status).toBe(422);
  });
});

describe("waiting on people", () => {
  it("marks the run whose only outstanding attempt waits on a request, and counts it apart", async () => {
    const all = await list("");
    for (const run of all) {
      expect(run).toHaveProperty("waiting_on_people", run.id === asked);
    }
    const waiting = all.find((r) => r.id === asked)!;
    expect(waiting.status).toBe("running");
    const detail = (await s.call("GET", `/api/runs/${asked}`)).body;
    expect(detail.waiting_on_people).toBe(true);
    expect(detail.status).toBe("running");
    const counts = (await s.call("GET", "/api/runs/counts")).body;
    expect(counts.waiting_on_people).toBe(1);
    expect(counts.by_status.running).toBe(1);
    // Answered, it goes on and ends: no longer waiting on anyone.
    const requests = (await s.call("GET", `/api/requests?pending=true&run=${asked}`)).body;
    expect(requests).toHaveLength(1);
    const answer = await s.call("POST", `/api/requests/${requests[0].id}/answer`, {
      option_id: "go",
    });
    expect(answer.status).toBeLessThan(300);
    await eventually(
      async () => (await s.call("GET", `/api/runs/${asked}`)).body.status === "completed",
      "the asker run completed",
      10_000,
    );
    expect((await s.call("GET", `/api/runs/${asked}`)).body.waiting_on_people).toBe(false);
    expect((await s.call("GET", "/api/runs/counts")).body.waiting_on_people).toBe(0);
  });
});
