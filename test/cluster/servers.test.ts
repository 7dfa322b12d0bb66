// Several `yardmaster serve` processes on one PostgreSQL schema, driven over HTTP as an
// operator's load balancer would: any server takes any request. Checked against the store
// itself (the test reads the schema's tables): the pool's capacity holds over all servers
// together, every attempt's outcome is committed once, a server killed with SIGKILL has its
// attempts taken back by the survivors (`engine.recovered` naming it), an event stream on one
// server carries every server's events in id order without a gap, and operations, answers,
// registrations and a token rotation made on one server act on the others.
import type { ChildProcess } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, onTestFinished } from "vitest";
import { dropSchemas, freshSchema, postgres, withAdmin, withSchema } from "../support/postgres.ts";
import { crash, killAll, rotateToken, type Served, serve, serverDir } from "../support/serve.ts";
import { openStream } from "../support/sse.ts";
import { eventually } from "../support/wait.ts";

const skipped = postgres.url === null;
const title = (name: string) => (skipped ? `${name} (skipped: ${postgres.reason})` : name);

const children: ChildProcess[] = [];
const dirs: string[] = [];
const schemas: string[] = [];
afterEach(() => killAll(children));
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await dropSchemas(schemas);
});

const WORKFLOWS = `import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Arrival, workflow } from "yardmaster";
const nap = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const chain = workflow("chain");
chain.node({ start: true }, async function c1({ c2 }: any) { await nap(15); return c2(1); });
chain.node(async function c2({ c3 }: any, n: number) { await nap(15); return c3(n + 1); });
chain.node(async function c3({}: any, n: number) { await nap(15); return n + 1; });

export const fan = workflow("fan");
fan.node({ start: true }, async function split({ leaf }: any) {
  return [1, 2, 3, 4].map((i) => leaf(i));
});
fan.node(async function leaf({ gather }: any, i: number) { await nap(15); return gather(i * 2); });
fan.node({ join: true }, async function gather({}: any, xs: Arrival<number>[]) {
  return xs.reduce((sum, x) => sum + x.value, 0);
});

export const asks = workflow("asks");
asks.node({ start: true }, async function decide({}: any, input: { title: string }, ctx: any) {
  const answer = await ctx.ask({ prompt: "go?", options: [{ option_id: "yes", name: "Yes" }] });
  return { answered: answer };
});

// Runs until it is stopped, leaving a mark when its signal aborts.
export const hold = workflow("hold");
hold.node({ start: true, timeout: 120 }, async function wait({}: any, input: { title: string }, ctx: any) {
  await new Promise<void>((resolve) => {
    ctx.signal.addEventListener("abort", () => {
      writeFileSync(join(process.cwd(), "aborted-" + input.title), String(process.pid));
      resolve();
    });
  });
  return "stopped";
});
`;

const LATE = `import { workflow } from "yardmaster";
export const late = workflow("late");
late.node({ start: true }, async function only({}: any) { return "late"; });
`;

function toml(extra: string): string {
  return `[server]
host = "127.0.0.1"
port = 0
${extra}
[pools.default]
capacity = 4
[workflows.chain]
target = "wf.ts:chain"
[workflows.fan]
target = "wf.ts:fan"
[workflows.asks]
target = "wf.ts:asks"
[workflows.hold]
target = "wf.ts:hold"
`;
}

interface Cluster {
  dir: string;
  url: string;
  schema: string;
  servers: Served[];
  start(): Promise<Served>;
}

/** A folder with the workflows, a fresh schema, and `n` servers started on it in turn. */
async function cluster(n: number, extra: string): Promise<Cluster> {
  const dir = serverDir("ym-cluster-");
  dirs.push(dir);
  writeFileSync(join(dir, "wf.ts"), WORKFLOWS);
  writeFileSync(join(dir, "late.ts"), LATE);
  const schema = freshSchema("cl");
  schemas.push(schema);
  const url = withSchema(postgres.url!, schema);
  const c: Cluster = {
    dir,
    url,
    schema,
    servers: [],
    async start() {
      // Three servers starting on two busy cores may take a while to print their ready line.
      const served = await serve({ dir, toml: toml(extra), store: url, children, readyMs: 90_000 });
      c.servers.push(served);
      return served;
    },
  };
  for (let i = 0; i < n; i++) await c.start();
  return c;
}

const IN_PROGRESS_OF = "SELECT id FROM tasks WHERE owner = $1 AND status = 'in_progress'";

async function sql<T = any>(schema: string, text: string, values: unknown[] = []): Promise<T[]> {
  return withAdmin(async (client) => {
    await client.query(`SET search_path TO ${schema}`);
    return (await client.query(text, values)).rows as T[];
  });
}

/** What the store holds, for a failure's message. */
async function diagnose(schema: string) {
  return {
    runs: await sql(schema, "SELECT status, count(*)::int AS n FROM runs GROUP BY status"),
    tasks: await sql(
      schema,
      "SELECT owner, status, count(*)::int AS n FROM tasks WHERE status IN ('in_progress', 'waiting', 'ready') GROUP BY 1, 2",
    ),
    stuck: await sql(
      schema,
      "SELECT t.id, t.node, t.status, t.owner, t.claim, r.status AS run FROM tasks t JOIN runs r ON r.id = t.run_id WHERE r.status NOT IN ('completed', 'failed', 'cancelled') LIMIT 10",
    ),
    servers: await sql(schema, "SELECT id, pid, lease_until > now() AS live FROM servers"),
    pending: await sql(
      schema,
      "SELECT count(*)::int AS n FROM requests WHERE answered_by IS NULL AND NOT stale",
    ),
  };
}

async function serverId(s: Served, headers: Record<string, string> = {}): Promise<string> {
  const health = await s.call("GET", "/api/health", undefined, headers);
  expect(health.status).toBe(200);
  return health.body.server_id as string;
}

describe.skipIf(skipped)(title("several servers on one PostgreSQL schema"), () => {
  it("three servers share 2,000 runs and survive kill -9: capacity, outcomes once, failover, one event order", {
    // Bounds, not speed: on a machine busy with other work the 2,000 runs take minutes.
    timeout: 420_000,
  }, async () => {
    const c = await cluster(3, "lease = 3");
    const [a, b, sse] = c.servers;
    // Every server lists the three, and each its own id.
    const health = await sse.call("GET", "/api/health");
    expect(health.body.servers.map((s: { id: string }) => s.id).sort()).toEqual(
      (await Promise.all(c.servers.map((s) => serverId(s)))).sort(),
    );
    const stream = await openStream(`${sse.url}/api/events?after=0`);
    expect(stream.status).toBe(200);

    // The pool's in-progress count, sampled from the store the whole time.
    let maxInProgress = 0;
    let sampling = true;
    let answering = true;
    const sampler = (async () => {
      while (sampling) {
        const [row] = await sql(
          c.schema,
          "SELECT count(*)::int AS n FROM tasks WHERE status = 'in_progress'",
        );
        maxInProgress = Math.max(maxInProgress, row.n);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    // A failed test stops the sampler and the answerer too, before its schema is dropped.
    onTestFinished(() => {
      sampling = false;
      answering = false;
    });

    // 2,000 runs of three workflows, in batches of 250 spread over the servers (interleaved).
    const batches: Array<{ workflow: string; titles: string[] }> = [];
    for (let i = 0; i < 8; i++) {
      const workflow = i === 7 ? "asks" : i % 2 ? "fan" : "chain";
      const count = workflow === "asks" ? 200 : i === 6 ? 300 : 250;
      batches.push({
        workflow,
        titles: Array.from({ length: count }, (_, j) => `${workflow}-${i}-${j}`),
      });
    }
    const expected = { chain: 0, fan: 0, asks: 0 } as Record<string, number>;
    for (const batch of batches) expected[batch.workflow] += batch.titles.length;
    expect(expected.chain + expected.fan + expected.asks).toBe(2000);

    // Asks are answered through a server other than the one whose body waits on them.
    const answered = new Set<number>();
    let crossAnswers = 0;
    const answerer = (async () => {
      while (answering) {
        // A server killed between the listing and the answer fails the call: the next round
        // answers what is still open.
        try {
          const live = c.servers.filter(
            (s) => s.child.exitCode === null && s.child.signalCode === null,
          );
          const healths = await Promise.all(live.map((s) => s.call("GET", "/api/health")));
          const ids = healths.map((h) => h.body?.server_id as string | undefined);
          const reqs = await sse.call("GET", "/api/requests?pending=true");
          for (const req of (reqs.body ?? []) as Array<{ id: number; task_id: number }>) {
            if (answered.has(req.id)) continue;
            const task = await sse.call("GET", `/api/tasks/${req.task_id}`);
            const owner = task.body?.server_id;
            const other = live.find((_, i) => ids[i] !== owner) ?? sse;
            const reply = await other.call("POST", `/api/requests/${req.id}/answer`, {
              option_id: "yes",
            });
            if (reply.status === 200) {
              answered.add(req.id);
              if (owner && ids.includes(owner)) crossAnswers += 1;
            }
          }
        } catch {
          // Retried on the next round.
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    // After batches 1, 3 and 5: wait until a server other than the stream's holds attempts,
    // kill it with SIGKILL, and start another in its place. What it held at the kill must come
    // back in `engine.recovered` naming it.
    const killed: Array<{ id: string; stuck: number[] }> = [];
    const workers = [a, b];
    for (const [i, batch] of batches.entries()) {
      const runs = batch.titles.map((title) => ({ title }));
      const live = [...workers, sse];
      const reply = await live[i % 3].call(
        "POST",
        `/api/workflows/${batch.workflow}/runs/batch`,
        runs,
      );
      expect(reply.status).toBe(201);
      if (i % 2 === 0 || i > 5) continue;
      const slot = killed.length % 2;
      const target = workers[slot];
      const id = await serverId(target);
      await eventually(
        async () => (await sql(c.schema, IN_PROGRESS_OF, [id])).length > 0,
        `server ${id} running attempts`,
        60_000,
      ).catch(async (err) => {
        throw new Error(`${(err as Error).message}: ${JSON.stringify(await diagnose(c.schema))}`);
      });
      await crash(target);
      // Read after the kill: the dead server changes nothing any more, and what a survivor
      // released already is no longer counted here (so this is a subset of what it held).
      const stuck = (await sql(c.schema, IN_PROGRESS_OF, [id])).map((r) => Number(r.id));
      killed.push({ id, stuck });
      workers[slot] = await c.start();
    }
    expect(killed).toHaveLength(3);

    // Every run ends.
    await eventually(
      async () => {
        const [row] = await sql(
          c.schema,
          "SELECT count(*)::int AS n FROM runs WHERE status NOT IN ('completed', 'failed', 'cancelled')",
        );
        return row.n === 0;
      },
      "every run ended",
      360_000,
      200,
    ).catch(async (err) => {
      throw new Error(`${(err as Error).message}: ${JSON.stringify(await diagnose(c.schema))}`);
    });
    answering = false;
    sampling = false;
    await Promise.all([answerer, sampler]);

    // Each run ended as it would on one server.
    const runs = await sql(c.schema, "SELECT workflow, status FROM runs");
    expect(runs.length).toBe(2000);
    expect(runs.filter((r) => r.workflow === "chain").length).toBe(expected.chain);
    expect(runs.filter((r) => r.status !== "completed")).toEqual([]);
    // Each run's last node returned what one server alone would have computed.
    const outputs = await sql(
      c.schema,
      "SELECT r.workflow, t.result::text AS result, count(*)::int AS n FROM tasks t JOIN runs r ON r.id = t.run_id WHERE t.node IN ('c3', 'gather') AND t.status = 'done' GROUP BY 1, 2 ORDER BY 1",
    );
    expect(outputs).toEqual([
      { workflow: "chain", result: "3", n: expected.chain },
      { workflow: "fan", result: "20", n: expected.fan },
    ]);
    expect(answered.size).toBe(expected.asks);
    expect(crossAnswers).toBeGreaterThan(0);

    // Every attempt's outcome was committed once; each node ran to one outcome per run.
    const twice = await sql(
      c.schema,
      "SELECT task_id FROM events WHERE name = 'task.done' GROUP BY task_id HAVING count(*) > 1",
    );
    expect(twice).toEqual([]);
    const [doneRows] = await sql(
      c.schema,
      "SELECT count(*)::int AS n FROM tasks WHERE status = 'done'",
    );
    expect(doneRows.n).toBe(expected.chain * 3 + expected.fan * 6 + expected.asks);

    // The pool's capacity (4) held over the three servers together.
    expect(maxInProgress).toBeGreaterThan(0);
    expect(maxInProgress).toBeLessThanOrEqual(4);

    // The survivors released what each killed server held, naming it.
    const recovered = await sql(
      c.schema,
      "SELECT data FROM events WHERE name = 'engine.recovered'",
    );
    for (const { id, stuck } of killed) {
      const named = recovered
        .map((r) => (typeof r.data === "string" ? JSON.parse(r.data) : r.data))
        .filter((d) => d.server_id === id)
        .flatMap((d) => d.task_ids as number[]);
      for (const task of stuck) expect(named).toContain(task);
    }
    expect(killed.some((k) => k.stuck.length > 0)).toBe(true);

    // The stream on the server never killed carried every stored event, in id order, once.
    const ids = (await sql(c.schema, "SELECT id FROM events ORDER BY id")).map((r) => Number(r.id));
    const seen = await stream.until(
      "every event on the stream",
      (frames) => frames.filter((f) => f.id !== undefined).length >= ids.length,
      60_000,
    );
    stream.close();
    const streamed = seen.filter((f) => f.id !== undefined).map((f) => Number(f.id));
    expect(streamed).toEqual(ids);
  });

  it("operations, answers, registrations and a token rotation made on one server act on another", {
    timeout: 120_000,
  }, async () => {
    // A long lease: the graceful stop below must hand its attempt back without waiting for it.
    const c = await cluster(2, "require_token = true\nlease = 60");
    const [a, b] = c.servers;
    const tokenFile = join(c.dir, ".yardmaster", "operator-token");
    let token = readFileSync(tokenFile, "utf8").trim();
    const auth = () => ({ authorization: `Bearer ${token}` });
    const ids = [await serverId(a, auth()), await serverId(b, auth())];
    const byId = (id: string) => c.servers[ids.indexOf(id)];
    const otherThan = (id: string) => c.servers[1 - ids.indexOf(id)];

    // Cancel through the server that is not running the body: the body is stopped.
    const held = await a.call("POST", "/api/workflows/hold/runs", { title: "h1" }, auth());
    expect(held.status).toBe(201);
    const running = await eventually(async () => {
      const run = await a.call("GET", `/api/runs/${held.body.run_id}`, undefined, auth());
      const task = run.body.tasks?.[0];
      return task?.status === "in_progress" && task.server_id ? task : null;
    }, "hold running");
    expect(ids).toContain(running.server_id);
    const cancel = await otherThan(running.server_id).call(
      "POST",
      `/api/runs/${held.body.run_id}/cancel`,
      {},
      auth(),
    );
    expect(cancel.status).toBe(200);
    await eventually(() => {
      try {
        return (
          readFileSync(join(c.dir, "aborted-h1"), "utf8") ===
          String(byId(running.server_id).child.pid)
        );
      } catch {
        return false;
      }
    }, "the body on the other server stopped");
    const cancelled = await a.call("GET", `/api/runs/${held.body.run_id}`, undefined, auth());
    expect(cancelled.body.status).toBe("cancelled");

    // An answer given on the server that does not run the body resumes it there.
    const asked = await b.call("POST", "/api/workflows/asks/runs", { title: "q1" }, auth());
    const waiting = await eventually(async () => {
      const run = await b.call("GET", `/api/runs/${asked.body.run_id}`, undefined, auth());
      const task = run.body.tasks?.[0];
      return task?.status === "waiting" && task.server_id ? task : null;
    }, "ask waiting");
    const reqs = await b.call(
      "GET",
      `/api/requests?run=${asked.body.run_id}&pending=true`,
      undefined,
      auth(),
    );
    expect(reqs.body).toHaveLength(1);
    const answer = await otherThan(waiting.server_id).call(
      "POST",
      `/api/requests/${reqs.body[0].id}/answer`,
      { option_id: "yes" },
      auth(),
    );
    expect(answer.status).toBe(200);
    const done = await eventually(async () => {
      const run = await a.call("GET", `/api/runs/${asked.body.run_id}`, undefined, auth());
      return run.body.status === "completed" ? run.body : null;
    }, "asked run completed");
    expect(done.tasks).toHaveLength(1);
    expect(done.tasks[0].server_id).toBe(waiting.server_id);
    // Resumed where it waited, not run again: one start.
    const starts = await sql(
      c.schema,
      "SELECT count(*)::int AS n FROM events WHERE name = 'task.started' AND task_id = $1",
      [waiting.id],
    );
    expect(starts[0].n).toBe(1);

    // Register on A, submit on B.
    const registered = await a.call("POST", "/api/workflows", { target: "late.ts:late" }, auth());
    expect(registered.status).toBe(201);
    await eventually(
      async () => (await b.call("GET", "/api/workflows/late", undefined, auth())).status === 200,
      "late known on B",
    );
    const late = await b.call("POST", "/api/workflows/late/runs", { title: "l1" }, auth());
    expect(late.status).toBe(201);
    await eventually(async () => {
      const run = await b.call("GET", `/api/runs/${late.body.run_id}`, undefined, auth());
      return run.body.status === "completed";
    }, "late run completed");
    // Removed on B: gone on A.
    expect((await b.call("DELETE", "/api/workflows/late", undefined, auth())).status).toBe(200);
    await eventually(
      async () => (await a.call("GET", "/api/workflows/late", undefined, auth())).status === 404,
      "late gone on A",
    );

    // A token rotated once is the token of both servers.
    const old = token;
    token = await rotateToken(c.servers[0].config!);
    expect(token).not.toBe(old);
    for (const s of c.servers) {
      expect(
        (await s.call("GET", "/api/runs?limit=1", undefined, { authorization: `Bearer ${old}` }))
          .status,
      ).toBe(401);
      expect((await s.call("GET", "/api/runs?limit=1", undefined, auth())).status).toBe(200);
    }

    // A graceful stop hands the server's attempts back at once: a held run moves to the other.
    const again = await a.call("POST", "/api/workflows/hold/runs", { title: "h2" }, auth());
    const first = await eventually(async () => {
      const run = await a.call("GET", `/api/runs/${again.body.run_id}`, undefined, auth());
      const task = run.body.tasks?.[0];
      return task?.status === "in_progress" && task.server_id ? task : null;
    }, "h2 running");
    const leaving = byId(first.server_id);
    const staying = otherThan(first.server_id);
    leaving.child.kill("SIGTERM");
    await leaving.exited;
    const moved = await eventually(
      async () => {
        const run = await staying.call("GET", `/api/runs/${again.body.run_id}`, undefined, auth());
        const task = run.body.tasks?.[0];
        return task?.status === "in_progress" &&
          task.server_id === ids[1 - ids.indexOf(first.server_id)]
          ? task
          : null;
      },
      "h2 running on the other server",
      20_000,
    );
    expect(moved.id).toBe(first.id);
    const handed = await sql(c.schema, "SELECT data FROM events WHERE name = 'engine.recovered'");
    expect(handed.map((r) => r.data)).toContainEqual({
      task_ids: [first.id],
      server_id: first.server_id,
    });
  });

  it("a server paused past its lease loses its attempts to another, stops them and joins again", {
    timeout: 120_000,
  }, async () => {
    const c = await cluster(2, "lease = 2");
    const ids = [await serverId(c.servers[0]), await serverId(c.servers[1])];
    const held = await c.servers[0].call("POST", "/api/workflows/hold/runs", { title: "p1" });
    expect(held.status).toBe(201);
    const runAt = (s: Served) => s.call("GET", `/api/runs/${held.body.run_id}`);
    const first = await eventually(async () => {
      const task = (await runAt(c.servers[0])).body.tasks?.[0];
      return task?.status === "in_progress" && task.server_id ? task : null;
    }, "p1 running");
    const paused = c.servers[ids.indexOf(first.server_id)];
    const other = c.servers[1 - ids.indexOf(first.server_id)];
    paused.child.kill("SIGSTOP");
    try {
      // The other server sees the lease run out and runs the attempt itself.
      const moved = await eventually(
        async () => {
          const task = (await runAt(other)).body.tasks?.[0];
          return task?.status === "in_progress" && task.server_id === ids[c.servers.indexOf(other)]
            ? task
            : null;
        },
        "p1 taken over",
        30_000,
      );
      expect(moved.id).toBe(first.id);
    } finally {
      paused.child.kill("SIGCONT");
    }
    // Back, the paused server finds its lease gone: it stops its body without writing, and
    // serves again under a new id.
    await eventually(
      () => {
        try {
          return readFileSync(join(c.dir, "aborted-p1"), "utf8") === String(paused.child.pid);
        } catch {
          return false;
        }
      },
      "the paused server's body stopped",
      30_000,
    );
    const rejoined = await eventually(async () => {
      const id = (await paused.call("GET", "/api/health")).body.server_id;
      return id && id !== first.server_id ? id : null;
    }, "a new id");
    expect(ids).not.toContain(rejoined);
    const task = (await runAt(other)).body.tasks[0];
    expect(task.status).toBe("in_progress");
    expect(task.server_id).toBe(ids[c.servers.indexOf(other)]);
    const recovered = await sql(
      c.schema,
      "SELECT data FROM events WHERE name = 'engine.recovered'",
    );
    expect(recovered.map((r) => r.data)).toContainEqual({
      task_ids: [first.id],
      server_id: first.server_id,
    });
    // Nothing was written for the attempt by the server that lost it.
    const written = await sql(
      c.schema,
      "SELECT name FROM events WHERE task_id = $1 AND name IN ('task.done', 'task.failed', 'task.cancelled')",
      [first.id],
    );
    expect(written).toEqual([]);
  });
});
