// Paging the run list on a real `yardmaster serve`: a client pages through a few hundred runs
// by the cursor while new runs are submitted, and sees every run that existed when it began
// exactly once (new runs go to the end of the dispatch list, after every cursor). Also the
// title search, the counts and a bad cursor.
import type { ChildProcess } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Reply } from "../support/http-client.ts";
import { type Served, serve, serverDir } from "../support/serve.ts";

const WORKFLOW = `import { workflow } from "yardmaster";
export const quick = workflow("quick");
quick.node({ start: true }, async function done({}, input: { title: string }) {
  return input.title;
});
`;
const CONFIG = `[pools.default]\ncapacity = 2\n[workflows.quick]\ntarget = "quick.ts:quick"\n`;
const BEFORE = 300;

let dir: string;
let server: Served;
const children: ChildProcess[] = [];

async function submit(title: string): Promise<string> {
  const res = await server.call("POST", "/api/workflows/quick/runs", { title });
  expect(res.status).toBe(201);
  return res.body.run_id;
}

beforeAll(async () => {
  dir = serverDir("pages-");
  await writeFile(join(dir, "quick.ts"), WORKFLOW);
  server = await serve({ dir, toml: CONFIG, args: ["--port", "0"], children });
  for (let i = 0; i < BEFORE; i += 10) {
    await Promise.all(
      Array.from({ length: 10 }, (_, k) =>
        submit(`${(i + k) % 3 === 0 ? "Fizz" : "plain"} ${i + k}`),
      ),
    );
  }
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await rm(dir, { recursive: true, force: true });
});

describe("GET /api/runs paged", () => {
  it("sees every run that existed once, while new runs are submitted", async () => {
    const existing: string[] = (await server.call("GET", "/api/runs")).body.map(
      (r: { id: string }) => r.id,
    );
    expect(existing).toHaveLength(BEFORE);
    const seen: string[] = [];
    let path: string | null = "/api/runs?limit=25";
    let pages = 0;
    while (path !== null) {
      const [res]: [Reply, string] = await Promise.all([
        server.call("GET", path),
        submit(`late ${pages}`),
      ]);
      expect(res.status).toBe(200);
      expect(res.body.length).toBeLessThanOrEqual(25);
      seen.push(...res.body.map((r: { id: string }) => r.id));
      const cursor = res.headers.get("x-service-next-cursor");
      const link: string | null = res.headers.get("link");
      if (cursor === null) {
        expect(link).toBeNull();
        path = null;
      } else {
        expect(link).toBe(`</api/runs?limit=25&cursor=${cursor}>; rel="next"`);
        path = link!.slice(1, link!.indexOf(">"));
      }
      pages++;
      expect(pages).toBeLessThan(100);
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, BEFORE)).toEqual(existing);
  });

  it("answers the whole list without limit, and no cursor header", async () => {
    const res = await server.call("GET", "/api/runs");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-next-cursor")).toBeNull();
    expect(res.headers.get("link")).toBeNull();
    expect(res.body.length).toBeGreaterThanOrEqual(BEFORE);
  });

  it("searches titles ignoring case, paged too", async () => {
    const all = (await server.call("GET", "/api/runs?q=fIZZ")).body;
    expect(all).toHaveLength(BEFORE / 3);
    expect(all.every((r: { title: string }) => r.title.startsWith("Fizz"))).toBe(true);
    const first = await server.call("GET", "/api/runs?q=fizz&limit=60");
    expect(first.body).toHaveLength(60);
    const cursor = first.headers.get("x-service-next-cursor")!;
    const rest = await server.call("GET", `/api/runs?q=fizz&limit=60&cursor=${cursor}`);
    expect([...first.body, ...rest.body]).toEqual(all);
    expect(rest.headers.get("x-service-next-cursor")).toBeNull();
  });

  it("refuses a bad cursor, limit or q with 422 validation", async () => {
    for (const query of ["cursor=nonsense", "cursor=WzEsMl0", "limit=0", "limit=1001"]) {
      const res = await server.call("GET", `/api/runs?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.code).toBe("validation");
    }
    const bad = await server.call("GET", "/api/runs?limit=5&cursor=nonsense");
    expect(bad.body.errors).toEqual([
      { loc: ["query", "cursor"], msg: "Invalid cursor", type: "value_error" },
    ]);
    const long = await server.call("GET", `/api/runs?q=${"x".repeat(201)}`);
    expect(long.status).toBe(422);
  });

  it("counts runs per status and workflow", async () => {
    const res = await server.call("GET", "/api/runs/counts");
    expect(res.status).toBe(200);
    const { total, by_status, by_workflow } = res.body;
    expect(total).toBeGreaterThanOrEqual(BEFORE);
    expect(Object.keys(by_status).sort()).toEqual(
      ["cancelled", "completed", "failed", "paused", "queued", "running"].sort(),
    );
    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    expect(sum(by_status)).toBe(total);
    expect(sum(by_workflow.quick)).toBe(total);
  });
});
