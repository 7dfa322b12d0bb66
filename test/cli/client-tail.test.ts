// `yardmaster tail` against a real server: human lines and --json envelopes, filters, replay
// with --after, and reconnection across a server restart (resuming from Last-Event-ID on the
// same store; a resync notice on a fresh one).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  defaultToml,
  eventually,
  startTestServer,
  type TestServer,
} from "../support/server-harness.ts";
import { at, freePort, startCli } from "./client-kit.ts";

type Tail = ReturnType<typeof startCli>;
let tails: Tail[] = [];

function tail(url: string, ...argv: string[]): Tail {
  const started = startCli({ env: { YARDMASTER_URL: url } }, "tail", ...argv);
  tails.push(started);
  return started;
}

afterEach(async () => {
  for (const t of tails) t.stop();
  await Promise.all(tails.map((t) => t.done));
  tails = [];
});

const seen = (t: Tail, pattern: RegExp, what: string) =>
  eventually(async () => t.out.find((line) => pattern.test(line)), what);

describe("tail on one server", () => {
  let server: TestServer;
  let ym: ReturnType<typeof at>;
  beforeAll(async () => {
    server = await startTestServer();
    ym = at(server.url);
  });
  afterAll(() => server.close());

  it("prints one line per event, replays with --after and stops with exit 0", async () => {
    const first = (await ym("submit", "chain", "--title", "before", "--wait")).lines.at(-1)!;
    const t = tail(server.url, "--after", "0");
    const short = first.slice(-8);
    const created = await seen(t, /run\.created/, "replayed run.created");
    expect(created).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d  run\\.created +${short}  - +position=\\d+ title=before workflow=chain$`,
      ),
    );
    await seen(
      t,
      new RegExp(`task\\.done +${short}  #\\d+ +node=first attempt=1 terminal=false`),
      "task.done",
    );
    const live = (await ym("submit", "chain", "--title", "live")).lines.at(-1)!;
    await seen(
      t,
      new RegExp(`run\\.completed +${live.slice(-8)} .* output=8 `),
      "live run.completed",
    );
    t.stop();
    expect(await t.done).toBe(0);
    expect(t.err).toEqual([]);
  });

  it("--json prints each envelope on its own line", async () => {
    // --after 0: the replay covers events the run emits before the stream is open.
    const t = tail(server.url, "--json", "--after", "0");
    const id = (await ym("submit", "chain", "--title", "json")).lines.at(-1)!;
    const done = (l: string) => l.includes('"run.completed"') && l.includes(id);
    await eventually(async () => t.out.some(done), "completed");
    const envelopes = t.out.map((line) => JSON.parse(line));
    const mine = envelopes.filter((e) => e.run_id === id);
    expect(mine[0]).toMatchObject({
      name: "run.created",
      id: expect.any(Number),
      data: { title: "json" },
    });
    expect(mine.at(-1)).toMatchObject({ name: "run.completed", data: { output: 8 } });
  });

  it("--run and --names narrow the stream", async () => {
    const a = (await ym("submit", "chain", "--title", "aaa", "--wait")).lines.at(-1)!;
    await ym("submit", "chain", "--title", "other", "--wait");
    const t = tail(server.url, "--run", a, "--names", "run.*", "--after", "0", "--json");
    await eventually(async () => t.out.some((l) => l.includes('"run.completed"')), "completed");
    const names = t.out.map((line) => JSON.parse(line)).map((e) => [e.run_id, e.name]);
    expect(names).toEqual([
      [a, "run.created"],
      [a, "run.started"],
      [a, "run.completed"],
    ]);
  });

  it("refuses a bad --after with exit 2", async () => {
    const t = startCli({ env: { YARDMASTER_URL: server.url } }, "tail", "--after", "soon");
    expect(await t.done).toBe(2);
  });

  it("ends with exit 1 and the 404 for a run that does not exist, instead of waiting", async () => {
    const t = startCli({ env: { YARDMASTER_URL: server.url } }, "tail", "--run", "BOGUS");
    expect(await t.done).toBe(1);
    expect(t.err.join("\n")).toMatch(/^yardmaster tail: .+ \[404 not_found\]$/);
  });
});

it("exits 3 when the server cannot be reached", async () => {
  const t = startCli({ env: { YARDMASTER_URL: `http://127.0.0.1:${await freePort()}` } }, "tail");
  expect(await t.done).toBe(3);
  expect(t.err.join("\n")).toMatch(
    /^yardmaster tail: cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
  );
});

describe("tail across a server restart", () => {
  let dir: string;
  let port: number;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ym-tail-"));
    port = await freePort();
  });
  afterAll(async () => {
    for (const s of servers) await s.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  /** A server on the fixed port with the given store file. */
  async function serve(store: string): Promise<TestServer> {
    const toml = defaultToml().replace(
      "port = 0",
      `port = ${port}\nstore = "sqlite:${join(dir, store)}"`,
    );
    const server = await startTestServer(toml);
    servers.push(server);
    return server;
  }

  it("reconnects with Last-Event-ID and misses nothing on the same store", async () => {
    const first = await serve("same.db");
    const t = tail(first.url, "--after", "0");
    const ym = at(first.url);
    const before = (await ym("submit", "chain", "--title", "one")).lines.at(-1)!;
    await seen(t, new RegExp(`run\\.completed +${before.slice(-8)}`), "first run completed");
    await first.close();
    await eventually(async () => t.err.some((l) => l.includes("connection lost")), "drop seen");
    const second = await serve("same.db");
    // Submitted whether or not tail is back yet: the replay from Last-Event-ID covers the gap.
    const after = (await at(second.url)("submit", "chain", "--title", "two")).lines.at(-1)!;
    await seen(t, new RegExp(`run\\.completed +${after.slice(-8)}`), "second run completed");
    expect(
      t.out.filter((l) => l.includes(`run.created            ${after.slice(-8)}`)),
    ).toHaveLength(1);
    expect(
      t.out.filter((l) => l.includes(`run.completed          ${before.slice(-8)}`)),
    ).toHaveLength(1);
    expect(t.err).toContain("yardmaster tail: connected again");
    await second.close();
  });

  it("prints a resync notice when the server no longer has the events it had", async () => {
    const first = await serve("old.db");
    const t = tail(first.url, "--after", "0");
    await at(first.url)("submit", "chain", "--title", "old", "--wait");
    await seen(t, /run\.completed/, "old run completed");
    await first.close();
    const fresh = await serve("fresh.db");
    await seen(t, /^-- resync: the server skipped events/, "resync notice");
    const id = (await at(fresh.url)("submit", "chain", "--title", "new")).lines.at(-1)!;
    await seen(t, new RegExp(`run\\.created +${id.slice(-8)}`), "live events after resync");
    await fresh.close();
  });
});
