// Panel data routes (every kind's shape, misfits and throws as plugin_error, forms and custom
// panels without a data route, the builtin views) and assets (served by their declared path,
// `?v=` following the file's bytes, loadable without a token when auth is on).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultToml, startTestServer, type TestServer } from "../support/server-harness.ts";
import { runIn, submit, writeWorkflow } from "../support/workflow-files.ts";

const SHOWCASE = `${fileURLToPath(new URL("../../examples/showcase.ts", import.meta.url))}:showcase`;
const VIZ = fileURLToPath(new URL("../../examples/showcase-viz.js", import.meta.url));

/** One panel per data kind, each answering what the run's title asks: "fit", "misfit" or "throw". */
const SHAPES = `import { workflow } from "YARDMASTER";
export const shapes = workflow("shapes");
shapes.node({ start: true }, async function only() { return 1; });
const fits: Record<string, unknown> = {
  markdown: "# hi",
  kv: { a: 1 },
  table: { columns: ["a"], rows: [[1], { a: 2 }] },
  log: ["line", { text: "entry" }],
  chart: { kind: "line", series: [] },
  dashboard: { metrics: [{ label: "n", value: 1 }], table: { columns: [], rows: [] } },
};
const misfits: Record<string, unknown> = {
  markdown: { md: "# hi" },
  kv: ["a"],
  table: { columns: ["a"], rows: "none" },
  log: "one line",
  chart: { series: [] },
  dashboard: { metrics: 3 },
};
for (const kind of Object.keys(fits)) {
  shapes.panel({ name: kind, slot: "run", placement: "card", kind, scope: "run",
    data: async (_scope: unknown, ctx: any) => {
      const { title } = await ctx.run();
      if (title === "throw") throw new Error("no data today");
      return title === "misfit" ? misfits[kind] : fits[kind];
    } });
}
shapes.panel({ name: "everywhere", slot: "global", placement: "card", kind: "kv", scope: "global",
  data: async (scope: unknown) => ({ scope }) });
`;

const CUSTOM = `import { workflow } from "YARDMASTER";
export const art = workflow("art");
art.node({ start: true }, async function only() { return 1; });
art.panel({ name: "pic", slot: "run", placement: "pane", kind: "custom", scope: "run",
  element: "art-pic", asset: "./ui/pic.js" });
`;

let s: TestServer;
let token: string;
const runs: Record<string, string> = {};
beforeAll(async () => {
  s = await startTestServer(defaultToml().replace("port = 0", "port = 0\nrequire_token = true"));
  token = readFileSync(path.join(s.dir, ".yardmaster", "operator-token"), "utf8").trim();
  writeWorkflow(s.dir, "shapes.ts", SHAPES);
  writeWorkflow(s.dir, "art/ui/pic.js", "export const version = 1;\n");
  writeWorkflow(s.dir, "art/art.ts", CUSTOM);
  for (const target of ["shapes.ts:shapes", SHOWCASE, "art/art.ts:art"]) {
    const r = await authed("POST", "/api/workflows", { target });
    if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  }
  for (const title of ["fit", "misfit", "throw"]) runs[title] = await submitAuthed("shapes", title);
  runs.showcase = await submitAuthed("showcase", "alpha beta");
  for (const run of Object.values(runs)) await runIn(authedServer(), run, ["completed"]);
});
afterAll(async () => {
  await s?.close();
});

function authed(method: string, url: string, body?: unknown) {
  return s.call(method, url, body, { authorization: `Bearer ${token}` });
}
function authedServer(): TestServer {
  return {
    ...s,
    call: (m, u, b, h) => s.call(m, u, b, { ...h, authorization: `Bearer ${token}` }),
  };
}
const submitAuthed = (wf: string, title: string) => submit(authedServer(), wf, title);
const data = (wf: string, panel: string, query: string) =>
  authed("GET", `/api/plugins/${wf}/panels/${panel}/data?${query}`);

describe("panel data routes", () => {
  it("answer each kind's shape", async () => {
    for (const kind of ["markdown", "kv", "table", "log", "chart", "dashboard"]) {
      const r = await data("shapes", kind, `run_id=${runs.fit}`);
      expect(r.status, kind).toBe(200);
    }
    expect((await data("shapes", "markdown", `run_id=${runs.fit}`)).body).toBe("# hi");
    expect((await data("shapes", "table", `run_id=${runs.fit}`)).body).toEqual({
      columns: ["a"],
      rows: [[1], { a: 2 }],
    });
  });

  it("refuse a result that misfits its kind, and a data function that throws, as plugin_error", async () => {
    for (const kind of ["markdown", "kv", "table", "log", "chart", "dashboard"]) {
      const r = await data("shapes", kind, `run_id=${runs.misfit}`);
      expect(r.status, kind).toBe(500);
      expect(r.body, kind).toMatchObject({ code: "plugin_error", workflow: "shapes", panel: kind });
    }
    expect((await data("shapes", "chart", `run_id=${runs.misfit}`)).body.detail).toMatch(
      /chart.kind/,
    );
    const thrown = await data("shapes", "kv", `run_id=${runs.throw}`);
    expect(thrown.body).toMatchObject({ code: "plugin_error", detail: "no data today" });
  });

  it("resolve their scope from the query", async () => {
    const missing = await data("shapes", "kv", "");
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      { loc: ["query", "run_id"], msg: "Field required", type: "missing" },
    ]);
    const foreign = await data("shapes", "kv", `run_id=${runs.showcase}`);
    expect(foreign.status).toBe(404);
    const global = await data("shapes", "everywhere", "");
    expect(global.body).toEqual({
      scope: { kind: "global", workflow: "shapes", run_id: null, task_id: null, node: null },
    });
  });

  it("serve every showcase panel with data; forms and custom panels have none", async () => {
    const q = `run_id=${runs.showcase}`;
    expect((await data("showcase", "summary", q)).body).toMatch(/^## alpha beta/);
    expect((await data("showcase", "facts", q)).body).toEqual({
      title: "alpha beta",
      status: "completed",
      attempts: 2,
    });
    expect((await data("showcase", "attempts", q)).body).toEqual({
      columns: ["node", "attempt", "status"],
      rows: [
        ["measure", 1, "done"],
        ["score", 1, "done"],
      ],
    });
    expect((await data("showcase", "notes", q)).body.map((e: any) => e.text)).toEqual([
      "measured 2 reading(s)",
    ]);
    expect((await data("showcase", "trend", q)).body).toEqual({
      kind: "bar",
      series: [
        {
          name: "reading",
          points: [
            ["alpha", 5],
            ["beta", 8],
          ],
        },
      ],
    });
    expect((await data("showcase", "overview", q)).body).toMatchObject({
      metrics: [
        { label: "readings", value: 2 },
        { label: "total", value: 13 },
      ],
    });
    for (const panel of ["annotate_form", "viz", "nope"]) {
      const r = await data("showcase", panel, q);
      expect([r.status, r.body.code], panel).toEqual([404, "not_found"]);
    }
  });

  it("serve the builtin views for any workflow's run", async () => {
    const output = await data("_builtin", "output", `run_id=${runs.showcase}`);
    expect(output.body).toMatch(/\*\*Status:\*\* completed/);
    expect(output.body).toContain('"total": 13');
    const log = await data("_builtin", "log", `run_id=${runs.showcase}`);
    expect(log.body.map((e: any) => e.text)).toEqual(["measured 2 reading(s)"]);
    const task = (await authed("GET", `/api/runs/${runs.showcase}`)).body.tasks[0];
    const transcript = await data("_builtin", "transcript", `task_id=${task.id}`);
    expect(transcript.body).toEqual([]);
  });
});

describe("assets", () => {
  const assetUrl = async (wf: string) =>
    (await authed("GET", "/api/plugins")).body.find((e: any) => e.workflow === wf).assets[0];

  it("are served as JavaScript without a token while auth is on", async () => {
    expect((await s.call("GET", "/api/plugins")).status).toBe(401);
    const url = await assetUrl("showcase");
    const res = await fetch(s.url + url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(await res.text()).toBe(readFileSync(VIZ, "utf8"));
  });

  it("change their ?v= when the file's bytes change", async () => {
    const before = await assetUrl("art");
    expect(before).toMatch(/^\/plugins\/art\/assets\/ui\/pic\.js\?v=[0-9a-f]{12}$/);
    writeFileSync(path.join(s.dir, "art/ui/pic.js"), "export const version = 2;\n");
    const after = await assetUrl("art");
    expect(after).not.toBe(before);
    const fresh = await fetch(s.url + after);
    expect(await fresh.text()).toBe("export const version = 2;\n");
    const stale = await fetch(s.url + before);
    expect(stale.headers.get("cache-control")).toBe("no-cache");
  });

  it("are only the files a workflow declares", async () => {
    for (const url of [
      "/plugins/art/assets/art.ts",
      "/plugins/art/assets/../art.ts",
      "/plugins/nobody/assets/x.js",
    ]) {
      const res = await fetch(s.url + url);
      expect(res.status, url).toBe(404);
    }
  });
});
