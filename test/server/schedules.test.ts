// Schedules through a real `yardmaster serve`: a `[schedules.<name>]` row with an every-second
// cron submits runs with its title and input, GET /api/schedules shows next and last fire, PATCH
// disables (a configured schedule takes `enabled` only), POST refuses a bad cron with the
// parser's message and an unknown workflow as a submit does, DELETE removes an API schedule;
// a server killed while the schedule fires restarts without firing any moment twice.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { at } from "../cli/client-kit.ts";
import { crash, type Served, serve, serverDir, stop } from "../support/serve.ts";
import { testStoreUrl } from "../support/test-store.ts";
import { eventually } from "../support/wait.ts";

const FLOWS = `import { workflow } from "yardmaster";
export const tick = workflow("tick");
tick.node({ start: true }, async function a({}, payload) {
  return payload;
});
`;

const TOML = [
  "[workflows.tick]",
  'target = "flows.ts:tick"',
  "",
  "[schedules.every-second]",
  'workflow = "tick"',
  'cron = "* * * * * *"',
  'title = "Tick"',
  "input = { depth = 2 }",
  "",
  "[schedules.nightly]",
  'workflow = "tick"',
  'cron = "0 3 * * *"',
  'timezone = "Europe/Paris"',
  'title = "Nightly"',
  "enabled = false",
  "",
].join("\n");

const dir = serverDir("schedules-");
writeFileSync(join(dir, "flows.ts"), FLOWS);
const store = testStoreUrl(dir, "s.db");
let srv: Served | undefined;
const start = async () => {
  srv = await serve({ dir, toml: TOML, store, args: ["--port", "0"] });
  return srv;
};
afterAll(async () => {
  await stop(srv);
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe("schedules over HTTP", () => {
  it("fires the configured schedule and shows it", async () => {
    const s = await start();
    const fired = await eventually(async () => {
      const one = (await s.call("GET", "/api/schedules/every-second")).body;
      return one.last_run_id ? one : undefined;
    }, "a fire");
    expect(fired).toMatchObject({ workflow: "tick", source: "config", enabled: true });
    expect(typeof fired.next_fire).toBe("string");
    const run = (await s.call("GET", `/api/runs/${fired.last_run_id}`)).body;
    expect(run).toMatchObject({ title: "Tick", input: { depth: 2 }, workflow: "tick" });
    const list = (await s.call("GET", "/api/schedules")).body;
    expect(list.map((x: { name: string }) => x.name)).toStrictEqual(["every-second", "nightly"]);
    expect(list[1]).toMatchObject({ enabled: false, next_fire: null, timezone: "Europe/Paris" });
    // `yardmaster schedules` lists them.
    const printed = await at(s.url)("schedules");
    expect(printed.code).toBe(0);
    expect(printed.lines[0]).toMatch(/^SCHEDULE\s+WORKFLOW\s+CRON/);
    expect(printed.out).toContain("0 3 * * * (Europe/Paris)");
  }, 30_000);

  it("PATCH enables/disables; a configured schedule refuses other fields; POST/DELETE", async () => {
    const s = srv!;
    const on = await s.call("PATCH", "/api/schedules/nightly", { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.next_fire).toMatch(/T0[12]:00:00/);
    const cron = await s.call("PATCH", "/api/schedules/nightly", { cron: "0 4 * * *" });
    expect(cron.status).toBe(409);
    const bad = await s.call("POST", "/api/schedules", {
      name: "x",
      workflow: "tick",
      cron: "0 99 * * *",
      title: "X",
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe("validation");
    expect(bad.body.error).toContain("hour");
    const unknown = await s.call("POST", "/api/schedules", {
      name: "x",
      workflow: "nope",
      cron: "0 * * * *",
      title: "X",
    });
    expect(unknown.status).toBe(404);
    const made = await s.call("POST", "/api/schedules", {
      name: "hourly",
      workflow: "tick",
      cron: "0 * * * *",
      title: "Hourly",
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ source: "api", timezone: "UTC", last_fire: null });
    expect((await s.call("DELETE", "/api/schedules/hourly")).status).toBe(200);
    expect((await s.call("GET", "/api/schedules/hourly")).status).toBe(404);
    expect((await s.call("DELETE", "/api/schedules/nightly")).status).toBe(409);
  }, 30_000);

  it("a server killed while firing restarts without firing a moment twice", async () => {
    await crash(srv!);
    const s = await start();
    // The TOML sets nightly's enabled = false: the file wins over the operator's enable at start.
    expect((await s.call("GET", "/api/schedules/nightly")).body.enabled).toBe(false);
    const before = (await s.call("GET", "/api/runs")).body.length;
    await eventually(
      async () => (await s.call("GET", "/api/runs")).body.length > before + 1,
      "fires",
    );
    await s.call("PATCH", "/api/schedules/every-second", { enabled: false });
    const runs = (await s.call("GET", "/api/runs")).body as Array<{ id: string }>;
    const moments: number[] = [];
    for (const run of runs) {
      const events = (await s.call("GET", `/api/runs/${run.id}/events`)).body;
      const list = Array.isArray(events) ? events : events.events;
      for (const e of list) if (e.name === "schedule.fired") moments.push(e.data.scheduled_at);
    }
    expect(moments.length).toBe(runs.length);
    expect(new Set(moments).size).toBe(moments.length);
  }, 40_000);
});
