// The real server (`startServer`, as `yardmaster serve` wires it) on a PostgreSQL store: a
// fan-out/join run driven to completed over HTTP, then a restart on the same schema that still
// has it. Uses the server harness and the cluster the global setup started.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dropSchemas, freshSchema, postgres, withAdmin, withSchema } from "../support/postgres.ts";
import { freePort } from "../support/postgres-cluster.ts";
import { defaultToml, startTestServer, type TestServer } from "../support/server-harness.ts";
import { eventually } from "../support/wait.ts";

const skipped = postgres.url === null;
const schemas: string[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await dropSchemas(schemas);
});

/** The harness's configuration with `store` set to `url`. */
function tomlWithStore(url: string): string {
  return defaultToml().replace("port = 0", `port = 0\nstore = ${JSON.stringify(url)}`);
}

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "pgwork-e2e-"));
  dirs.push(dir);
  return dir;
}

async function runFan(s: TestServer, title: string) {
  const submitted = await s.call("POST", "/api/workflows/fan/runs", { title });
  expect(submitted.status).toBe(201);
  const runId = submitted.body.run_id as string;
  return eventually(async () => {
    const r = await s.call("GET", `/api/runs/${runId}`);
    return r.body.status === "completed" && r.body;
  }, `fan run ${runId} completed`);
}

const title = skipped ? `postgres server (skipped: ${postgres.reason})` : "postgres server";

describe.skipIf(skipped)(title, () => {
  it("completes a fan-out/join run over HTTP and still has it after a restart", async () => {
    const schema = freshSchema("e2e");
    schemas.push(schema);
    const toml = tomlWithStore(withSchema(postgres.url!, schema));
    const dir = freshDir();
    let s = await startTestServer(toml, dir);
    let run: any;
    try {
      run = await runFan(s, "a,b,c");
      expect(run.output).toBe("A+B+C");
      const nodes = run.tasks.map((t: { node: string }) => t.node);
      expect(nodes).toEqual(["split", "part", "part", "part", "gather"]);
      expect(run.tasks.every((t: { status: string }) => t.status === "done")).toBe(true);
    } finally {
      await s.stop();
    }
    // What the server wrote is in the schema's tables.
    const stored = await withAdmin(async (client) => ({
      run: (await client.query(`SELECT status FROM "${schema}".runs WHERE id = $1`, [run.id])).rows,
      arrivals: (await client.query(`SELECT count(*)::int AS n FROM "${schema}".arrivals`)).rows[0]
        .n,
    }));
    expect(stored).toEqual({ run: [{ status: "completed" }], arrivals: 3 });

    s = await startTestServer(toml, dir);
    try {
      const again = await s.call("GET", `/api/runs/${run.id}`);
      expect(again.body).toMatchObject({ id: run.id, status: "completed", output: "A+B+C" });
      expect(again.body.tasks.map((t: { id: number }) => t.id)).toEqual(
        run.tasks.map((t: { id: number }) => t.id),
      );
      const events = await s.call("GET", `/api/runs/${run.id}/events?limit=1000`);
      const names = events.body.map((e: { name: string }) => e.name);
      expect(names).toContain("run.completed");
      const next = await runFan(s, "x,y");
      expect(next).toMatchObject({ output: "X+Y", position: 2 });
    } finally {
      await s.stop();
    }
  });

  it("queues a batch of runs in one transaction: all of them, or none when one item is refused", async () => {
    const schema = freshSchema("batch");
    schemas.push(schema);
    const s = await startTestServer(tomlWithStore(withSchema(postgres.url!, schema)), freshDir());
    try {
      const items = Array.from({ length: 40 }, (_, i) => ({ title: `p${i},q${i}` }));
      const refused = await s.call("POST", "/api/workflows/fan/runs/batch", [
        ...items.slice(0, 3),
        { title: "" },
      ]);
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0].loc).toEqual(["body", 3, "title"]);
      expect((await s.call("GET", "/api/runs")).body).toEqual([]);
      const created = await s.call("POST", "/api/workflows/fan/runs/batch", items);
      expect(created.status).toBe(201);
      const ids = created.body.map((c: { run_id: string }) => c.run_id);
      const listed = (await s.call("GET", "/api/runs")).body;
      expect(listed.map((r: { id: string }) => r.id)).toEqual(ids);
      expect(listed.map((r: { position: number }) => r.position)).toEqual(
        items.map((_, i) => i + 1),
      );
      await eventually(async () => {
        const runs = (await s.call("GET", "/api/runs")).body as Array<{ status: string }>;
        return runs.every((r) => r.status === "completed") || undefined;
      }, "the 40 batch runs completed");
      const last = await s.call("GET", `/api/runs/${ids[39]}`);
      expect(last.body.output).toBe("P39+Q39");
    } finally {
      await s.stop();
    }
  });

  it("refuses text with a NUL character as a validation failure and keeps the runs submitted beside it", async () => {
    const schema = freshSchema("nul");
    schemas.push(schema);
    const s = await startTestServer(tomlWithStore(withSchema(postgres.url!, schema)), freshDir());
    try {
      // Twenty submits at once share the writer's batches: the refused one must fail alone.
      const titles = Array.from({ length: 20 }, (_, i) => (i === 7 ? "a\u0000b" : `x${i},y${i}`));
      const answers = await Promise.all(
        titles.map((title) => s.call("POST", "/api/workflows/fan/runs", { title })),
      );
      expect(answers.map((a) => a.status)).toEqual(titles.map((_, i) => (i === 7 ? 422 : 201)));
      expect(answers[7].body.code).toBe("validation");
      expect(answers[7].body.errors).toEqual([
        expect.objectContaining({ loc: ["body"], type: "string_nul" }),
      ]);
      const listed = (await s.call("GET", "/api/runs")).body as Array<{ title: string }>;
      expect(listed.map((r) => r.title)).toEqual(titles.filter((_, i) => i !== 7));
      const runId = answers[0].body.run_id as string;
      const log = await s.call("POST", `/api/runs/${runId}/log`, { text: "x\u0000y" });
      expect(log.status).toBe(422);
      expect(log.body.code).toBe("validation");
      const fine = await s.call("POST", `/api/runs/${runId}/log`, { text: "x y" });
      expect(fine.status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it("refuses to start on an unreachable server, naming it without the password", async () => {
    const url = new URL(postgres.url!);
    url.username = "ym";
    url.password = "Top-Secret-pw";
    const port = await freePort();
    url.port = String(port);
    const err = await startTestServer(tomlWithStore(url.toString()), freshDir()).then(
      () => new Error("started"),
      (e: Error) => e,
    );
    expect(err.name).toBe("ConfigError");
    expect(err.message).toMatch(
      new RegExp(
        `server\\.store: cannot open postgres://ym:\\*\\*\\*@127\\.0\\.0\\.1:${port}/postgres: ` +
          `postgres store: cannot connect to ym@127\\.0\\.0\\.1:${port}/postgres: .*ECONNREFUSED`,
      ),
    );
    expect(err.message).not.toContain("Top-Secret-pw");
  });
});
