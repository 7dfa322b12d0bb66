// The PostgreSQL store on a real server (the cluster test/support/postgres-setup.ts starts once
// per run): the shared contract, each test in a fresh schema, plus what only PostgreSQL has:
// schemas and migrations, several stores sharing one schema, per-pool type parsing, and the
// errors a bad URL or an unreachable server give.
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { StoreWriter } from "../../src/engine/index.ts";
import { openPools, parseTarget } from "../../src/stores/postgres/connection.ts";
import {
  MIGRATIONS,
  migrate,
  openPostgresStore,
  type PostgresStore,
} from "../../src/stores/postgres/index.ts";
import { dropSchemas, freshSchema, postgres, withAdmin, withSchema } from "../support/postgres.ts";
import { freePort, PASSWORD_ROLE } from "../support/postgres-cluster.ts";
import { eventually } from "../support/wait.ts";
import { addRun, addTask, gate, runInput, taskInput } from "./contract/fixtures.ts";
import { storeContract } from "./contract.ts";

const schemas: string[] = [];
function schemaUrl(prefix = "t", base = postgres.url!): string {
  const schema = freshSchema(prefix);
  schemas.push(schema);
  return withSchema(base, schema);
}
afterAll(() => dropSchemas(schemas));

const skipped = postgres.url === null;
const title = (name: string) => (skipped ? `${name} (skipped: ${postgres.reason})` : name);

describe.skipIf(skipped)(title("postgres"), () => {
  storeContract("postgres", () => openPostgresStore(schemaUrl()));
});

describe.skipIf(skipped)(title("postgres store"), () => {
  const open: PostgresStore[] = [];
  async function openAt(url: string) {
    const store = await openPostgresStore(url);
    open.push(store);
    return store;
  }
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
  });

  it("creates its tables in the ?schema= schema and keeps data, ids and version when reopened", async () => {
    const url = schemaUrl("reopen");
    const first = await openPostgresStore(url);
    const written = await first.transact(async (tx) => {
      const run = await tx.insertRun(runInput({ workflow: "w" }));
      const task = await tx.insertTask(taskInput(run.id, { payload: { deep: [1, { x: null }] } }));
      const events = await tx.appendEvents(
        [{ name: "run.created", run_id: run.id, task_id: null, data: { a: 1 } }],
        9,
      );
      return { run, task, events };
    });
    await first.close();
    const tables = await withAdmin(async (client) => {
      const sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = $1";
      return (await client.query(sql, [first.schema])).rows.map((r) => r.table_name);
    });
    expect(tables).toEqual(expect.arrayContaining(["runs", "tasks", "events", "schema_version"]));
    const again = await openAt(url);
    expect(await again.schemaVersion()).toBe(MIGRATIONS.length);
    expect(await again.getRun(written.run.id)).toStrictEqual(written.run);
    expect(await again.getTask(written.task.id)).toStrictEqual(written.task);
    expect(await again.listEvents({})).toStrictEqual(written.events);
    const next = await again.transact(async (tx) => {
      await tx.deleteRun(written.run.id);
      const run = await tx.insertRun(runInput());
      return { run, task: await tx.insertTask(taskInput(run.id)) };
    });
    expect(next.task.id).toBeGreaterThan(written.task.id);
    expect(next.run.position).toBe(1);
    expect(await again.lastEventId()).toBe(written.events[0].id);
  });

  it("applies migration steps in order, once, each in its own transaction", async () => {
    const schema = freshSchema("migrate");
    schemas.push(schema);
    const steps = [
      { version: 1, name: "one", sql: "CREATE TABLE one (x integer)" },
      { version: 2, name: "two", sql: "CREATE TABLE two (x integer)" },
    ];
    // Two migrators at once: the advisory lock and the re-check apply each step once.
    const racing = await Promise.all([
      withAdmin((client) => migrate(client, schema, steps.slice(0, 1))),
      withAdmin((client) => migrate(client, schema, steps.slice(0, 1))),
    ]);
    expect(racing.flat()).toEqual([1]);
    await withAdmin(async (client) => {
      expect(await migrate(client, schema, steps.slice(0, 1))).toEqual([]);
      expect(await migrate(client, schema, steps)).toEqual([2]);
      expect(await migrate(client, schema, steps)).toEqual([]);
      const broken = [
        ...steps,
        { version: 3, name: "bad", sql: "CREATE TABLE three (x int); SELEC" },
      ];
      await expect(migrate(client, schema, broken)).rejects.toThrow(/syntax/);
      const sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = $1";
      const tables = (await client.query(sql, [schema])).rows.map((r) => r.table_name).sort();
      expect(tables).toEqual(["one", "schema_version", "two"]);
      const versions = await client.query(`SELECT version FROM "${schema}".schema_version`);
      expect(versions.rows.map((r) => r.version)).toEqual([1, 2]);
      await expect(migrate(client, schema, steps.slice(0, 1))).rejects.toThrow(/newer/);
      await expect(
        migrate(client, schema, [{ version: 2, name: "gap", sql: "" }]),
      ).rejects.toThrow();
    });
  });

  it("two stores on one schema serialize their transactions and never claim the same task", async () => {
    const url = schemaUrl("skip");
    // Opened together on a new schema: one of them creates the tables, the other waits.
    const [a, b] = await Promise.all([openAt(url), openAt(url)]);
    expect(await a.schemaVersion()).toBe(MIGRATIONS.length);
    const runs = [await addRun(a, { workflow: "w" }), await addRun(b, { workflow: "w" })];
    const tasks = [];
    for (let i = 0; i < 40; i++) tasks.push(await addTask(i % 2 ? a : b, runs[i % 2].id));
    // A holds its transaction open: B's waits on the schema's write lock, then sees A's claim.
    const held = gate();
    const claimedByA = gate();
    let first: number[] = [];
    const aTx = a.transact(async (tx) => {
      first = (await tx.claimTasks(["w"], 2, 1)).map((t) => t.id);
      claimedByA.open();
      await held.wait;
    });
    await claimedByA.wait;
    let bDone = false;
    const claim = b.transact((tx) => tx.claimTasks(["w"], 2, 2));
    void claim.then(() => {
      bDone = true;
    });
    // B is blocked on the advisory write lock while A's transaction is open.
    await eventually(async () => {
      const waiting = await withAdmin((c) =>
        c.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"),
      );
      return (waiting.rowCount ?? 0) > 0;
    }, "B waiting on the write lock");
    expect(bDone).toBe(false);
    held.open();
    await aTx;
    const second = (await claim).map((t) => t.id);
    const inOrder = (await a.listTasks({ run_id: runs[0].id })).map((t) => t.id);
    expect(first).toEqual(inOrder.slice(0, 2));
    expect(second).toEqual(inOrder.slice(2, 4));
    // Then both drain the rest concurrently, a few at a time.
    const drain = async (store: PostgresStore) => {
      const got: number[] = [];
      for (;;) {
        const batch = await store.transact((tx) => tx.claimTasks(["w"], 3, 3));
        if (batch.length === 0) return got;
        got.push(...batch.map((t) => t.id));
      }
    };
    const [restA, restB] = await Promise.all([drain(a), drain(b)]);
    const all = [...first, ...second, ...restA, ...restB];
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort((x, y) => x - y)).toEqual(tasks.map((t) => t.id));
    const rows = await a.listTasks({});
    expect(rows.every((t) => t.status === "in_progress" && t.claim === 1)).toBe(true);
  });

  it("two stores on one schema keep positions dense and event ids unique and gapless", async () => {
    const url = schemaUrl("share");
    const [a, b] = [await openAt(url), await openAt(url)];
    const insert = (store: PostgresStore) =>
      store.transact(async (tx) => {
        const run = await tx.insertRun(runInput());
        await tx.appendEvents(
          [1, 2, 3].map((n) => ({ name: "run.updated", run_id: null, task_id: null, data: { n } })),
          1,
        );
        return run;
      });
    const jobs = [];
    for (let i = 0; i < 30; i++) jobs.push(insert(i % 2 ? a : b));
    await Promise.all(jobs);
    expect((await a.listRuns()).map((r) => r.position)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    const ids = (await b.listEvents({})).map((e) => e.id);
    expect(ids).toEqual(Array.from({ length: 90 }, (_, i) => i + 1));
    expect(await a.lastEventId()).toBe(90);
  });

  it("rejects a callback that goes on after a failed statement, and rolls it back", async () => {
    const store = await openAt(schemaUrl());
    const run = await addRun(store);
    const swallowed = store.transact(async (tx) => {
      await tx.insertRun(runInput({ id: "swallowed" }));
      // A task of a run that does not exist: the foreign key refuses it.
      await tx.insertTask(taskInput("no-such-run")).catch(() => null);
      return "pretended success";
    });
    // Sent behind the failed insert before the batch knew: rolled back with it
    // (postgres-pipeline.test.ts has the failure path in full).
    const neighbour = store.transact((tx) => tx.insertRun(runInput({ id: "neighbour" })));
    await expect(swallowed).rejects.toThrow(/foreign key/);
    await expect(neighbour).rejects.toMatchObject({ name: "BehindFailedUnit" });
    expect((await store.transact((tx) => tx.insertRun(runInput({ id: "next" })))).position).toBe(2);
    expect((await store.listRuns()).map((r) => r.id)).toEqual([run.id, "next"]);
  });

  it("retires the writer when its transaction ends", async () => {
    const store = await openAt(schemaUrl());
    let leaked: StoreWriter | undefined;
    await store.transact(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.insertRun(runInput())).rejects.toThrow(/finished/);
    await expect(leaked!.listRuns()).rejects.toThrow(/finished/);
    expect(await store.listRuns()).toEqual([]);
  });

  it("refuses patches of unknown or fixed fields", async () => {
    const store = await openAt(schemaUrl());
    const run = await addRun(store);
    const task = await addTask(store, run.id);
    const bad = { run_id: "other" } as object;
    await expect(store.transact((tx) => tx.updateTask(task.id, bad))).rejects.toThrow(/run_id/);
    const sneaky = { position: 5 } as object;
    await expect(store.transact((tx) => tx.updateRun(run.id, sneaky))).rejects.toThrow(/position/);
    expect((await store.getTask(task.id))?.run_id).toBe(run.id);
  });

  it("finishes queued transactions on close and refuses new ones", async () => {
    const store = await openPostgresStore(schemaUrl());
    const pending = store.transact((tx) => tx.insertRun(runInput()));
    await store.close();
    expect((await pending).position).toBe(1);
    await expect(store.transact((tx) => tx.listRuns())).rejects.toThrow(/closed/);
    await store.close();
  });

  it("parses bigint per pool, not globally, and keeps JSON as written", async () => {
    const store = await openAt(schemaUrl());
    const run = await addRun(store, { created: 1_700_000_000_123 });
    expect((await store.getRun(run.id))?.created).toBe(1_700_000_000_123);
    expect(pg.types.getTypeParser(20, "text")("42")).toBe("42");
    // A global json parser set by someone else in the process does not reach the store.
    const global = pg.types.getTypeParser(114, "text");
    pg.types.setTypeParser(114, "text", () => "global");
    try {
      expect((await addTask(store, run.id, { payload: [1] })).payload).toEqual([1]);
    } finally {
      pg.types.setTypeParser(114, "text", global);
    }
    const payload = { zeta: 1, alpha: { b: 2, a: "x\u0000y" }, list: [3, 1] };
    const task = await addTask(store, run.id, { payload });
    const read = await store.getTask(task.id);
    expect(JSON.stringify(read?.payload)).toBe(JSON.stringify(payload));
  });

  it("hands pg the URL without ?schema= and with search_path set", () => {
    const target = parseTarget(
      "postgresql://u:p@db.example:6543/ym?schema=tenant_1&sslmode=disable",
    );
    const handed = new URL(target.connectionString);
    expect(handed.searchParams.get("schema")).toBeNull();
    expect(handed.searchParams.get("options")).toBe("-c search_path=tenant_1");
    expect(handed.searchParams.get("sslmode")).toBe("disable");
    expect(target).toMatchObject({ schema: "tenant_1", label: "u@db.example:6543/ym" });
    expect(parseTarget("postgres://u@h/d").schema).toBe("public");
  });

  it("plans the writer's statements once and keeps the URL's own session options", async () => {
    const url = new URL(postgres.url!);
    url.searchParams.set("options", "-c statement_timeout=61000");
    url.searchParams.set("schema", "tenant_2");
    const { writer, reader } = openPools(parseTarget(url.toString()));
    const show = async (pool: pg.Pool, setting: string) =>
      (await pool.query(`SHOW ${setting}`)).rows[0][setting];
    try {
      expect(await show(writer, "plan_cache_mode")).toBe("force_generic_plan");
      expect(await show(reader, "plan_cache_mode")).toBe("auto");
      for (const pool of [writer, reader]) {
        expect(await show(pool, "statement_timeout")).toBe("61s");
        expect(await show(pool, "search_path")).toBe("tenant_2");
      }
    } finally {
      await Promise.all([writer.end(), reader.end()]);
    }
  });

  it("analyzes its young tables once the events it committed reach the first mark, however few the units", async () => {
    const url = schemaUrl("stats");
    const store = await openAt(url);
    const schema = new URL(url).searchParams.get("schema")!;
    const analyzed = async () => {
      const found = await withAdmin((admin) =>
        admin.query(
          "SELECT analyze_count + autoanalyze_count AS n FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'runs'",
          [schema],
        ),
      );
      return Number(found.rows[0]?.n ?? 0);
    };
    const run = await addRun(store);
    const events = (n: number) =>
      Array.from({ length: n }, () => ({
        name: "run.updated",
        run_id: run.id,
        task_id: null,
        data: {},
      }));
    // Three units of 150 events: 450 events since the store opened, past the first mark (300).
    for (let i = 0; i < 3; i++) await store.transact((tx) => tx.appendEvents(events(150), i + 1));
    await eventually(async () => (await analyzed()) > 0, "an ANALYZE of runs", 15_000, 100);
  });

  it("rejects a bad URL or an unreachable server clearly, never showing the password", async () => {
    const secret = "hunter2-Secret";
    const port = await freePort();
    const failure = async (url: string) => {
      const err = await openPostgresStore(url, { connectTimeoutMs: 5000 }).then(
        () => new Error("opened"),
        (e: Error) => e,
      );
      expect(err.message).not.toContain(secret);
      return err.message;
    };
    expect(await failure(`postgres://ym:${secret}@127.0.0.1:${port}/ymdb`)).toMatch(
      new RegExp(`cannot connect to ym@127\\.0\\.0\\.1:${port}/ymdb: .*ECONNREFUSED`),
    );
    const server = new URL(postgres.url!);
    server.password = secret;
    server.pathname = "/no_such_db";
    expect(await failure(server.toString())).toMatch(/no_such_db.*"no_such_db" does not exist/);
    expect(await failure(`postgres://ym:${secret}@[bad/db`)).toMatch(/not a valid URL/);
    const badSchema = withSchema(postgres.url!, "Bad-Name");
    expect(await failure(badSchema)).toMatch(/schema "Bad-Name" must be lower-case/);
  });

  it.skipIf(!postgres.ownCluster)(
    "rejects a wrong password and opens with the right one",
    async () => {
      const url = new URL(postgres.url!);
      url.username = PASSWORD_ROLE.user;
      url.password = "not-the-Password";
      const err = await openPostgresStore(url.toString()).catch((e: Error) => e);
      expect((err as Error).message).toMatch(
        new RegExp(
          `cannot connect to ${PASSWORD_ROLE.user}@127\\.0\\.0\\.1:\\d+/postgres: password authentication failed`,
        ),
      );
      expect((err as Error).message).not.toContain("not-the-Password");
      url.password = PASSWORD_ROLE.password;
      const store = await openAt(schemaUrl("pw", url.toString()));
      expect((await addRun(store)).position).toBe(1);
    },
  );
});
