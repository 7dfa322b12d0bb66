// Named operators through a real `yardmaster serve` (http.md "Operators"): two `[operators.*]`
// tables beside the single token, each token authenticating its own operator; what each one
// does is recorded as theirs, field by field, on the events that name the act, on work-log
// entries and on answered requests, while the engine's own events carry no `operator`.
// `token rotate --operator` changes that operator's token only.
import { execFile } from "node:child_process";
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENTS } from "../../src/engine/events.ts";
import { BIN, type Served, serve, serverDir, stop } from "../support/serve.ts";
import { testStoreUrl } from "../support/test-store.ts";
import { eventually } from "../support/wait.ts";

const run = promisify(execFile);

const FLOWS = `import { workflow } from "yardmaster";

export const asker = workflow("asker");
asker.node({ start: true }, async function decide({ done }, _input: unknown, ctx) {
  const choice = await ctx.ask({ prompt: "Proceed?", options: ["go", "stop"] });
  return done(choice);
});
asker.node(async function done({}, choice: string) {
  return choice;
});
`;

const TOML = [
  "[server]",
  "require_token = true",
  "",
  "[pools.default]",
  "capacity = 4",
  "",
  "[workflows.asker]",
  'target = "flows.ts:asker"',
  "",
  "[operators.ana]",
  'token_file = "tokens/ana"',
  "",
  "[operators.bo]",
  'token_file = "tokens/bo"',
  "",
].join("\n");

let srv: Served;
const dir = serverDir("operators-");
const tokenOf = (file: string) => readFileSync(join(dir, file), "utf8").trim();
const tokens = { ana: "", bo: "", operator: "" };

beforeAll(async () => {
  writeFileSync(join(dir, "flows.ts"), FLOWS);
  srv = await serve({ dir, toml: TOML, store: testStoreUrl(dir, "s.db"), args: ["--port", "0"] });
  tokens.ana = tokenOf("tokens/ana");
  tokens.bo = tokenOf("tokens/bo");
  tokens.operator = tokenOf(".yardmaster/operator-token");
}, 40_000);
afterAll(async () => {
  await stop(srv);
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

type Who = keyof typeof tokens;
const as = (who: Who, method: string, path: string, body?: unknown) =>
  srv.call(method, path, body, { authorization: `Bearer ${tokens[who]}` });

/** The run's stored events, each checked against its strict schema (`operator` included). */
async function events(runId: string): Promise<Array<{ name: string; data: any }>> {
  const reply = await as("ana", "GET", `/api/runs/${runId}/events`);
  expect(reply.status).toBe(200);
  for (const e of reply.body) {
    const schema = EVENTS[e.name as keyof typeof EVENTS].data;
    expect(schema.safeParse(e.data).success, `${e.name} ${JSON.stringify(e.data)}`).toBe(true);
  }
  return reply.body;
}

/** The one event named `name` of the run (the test's runs emit each of these once). */
async function only(runId: string, name: string) {
  const found = (await events(runId)).filter((e) => e.name === name);
  expect(found, name).toHaveLength(1);
  return found[0]!.data;
}

async function pendingRequest(runId: string) {
  return eventually(async () => {
    const list = (await as("bo", "GET", `/api/requests?run=${runId}&pending=true`)).body;
    return list.length === 1 ? list[0] : undefined;
  }, `run ${runId} asks`);
}

async function submit(who: Who, title: string): Promise<string> {
  const created = await as(who, "POST", "/api/workflows/asker/runs", { title });
  expect(created.status).toBe(201);
  return created.body.run_id;
}

describe("named operators", () => {
  it("creates each operator's token file (mode 0600), each token names its operator", async () => {
    for (const file of ["tokens/ana", "tokens/bo", ".yardmaster/operator-token"]) {
      expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    }
    expect(new Set(Object.values(tokens)).size).toBe(3);
    for (const who of ["ana", "bo", "operator"] as const) {
      const me = await as(who, "GET", "/api/me");
      expect(me.body).toMatchObject({ auth: "token", authenticated: true, operator: who });
      expect((await as(who, "GET", "/api/runs")).status).toBe(200);
    }
    const anonymous = await srv.call("GET", "/api/me");
    expect(anonymous.body.authenticated).toBe(false);
    expect(anonymous.body).not.toHaveProperty("operator");
  });

  it("refuses a wrong token and no token with 401, as with the single token", async () => {
    const wrong = await srv.call("GET", "/api/runs", undefined, { authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("unauthorized");
    expect(wrong.body.error).toBe("The operator token is not valid.");
    const none = await srv.call("GET", "/api/runs");
    expect(none.status).toBe(401);
    expect(none.body.error).toBe("An operator token is required.");
  });

  it("records who submitted, answered and wrote a note; the engine's events name nobody", async () => {
    const runId = await submit("ana", "attributed");
    const request = await pendingRequest(runId);
    const answered = await as("bo", "POST", `/api/requests/${request.id}/answer`, {
      option_id: "go",
    });
    expect(answered.status).toBe(200);
    expect(answered.body.answered_by).toBe("user");
    expect(answered.body.operator).toBe("bo");
    expect((await as("ana", "GET", `/api/requests/${request.id}`)).body.operator).toBe("bo");
    const note = await as("ana", "POST", `/api/runs/${runId}/log`, { text: "checked by hand" });
    expect(note.status).toBe(200);
    await eventually(async () => {
      const r = (await as("ana", "GET", `/api/runs/${runId}`)).body;
      return r.status === "completed" ? r : undefined;
    }, "run completed");

    const created = await only(runId, "run.created");
    expect(created.operator).toBe("ana");
    expect(created.title).toBe("attributed");
    const all = await events(runId);
    const enqueued = all.filter((e) => e.name === "task.enqueued");
    // The start task is the submit's (ana's); the next one follows from the answered ask.
    expect(enqueued[0]!.data.operator).toBe("ana");
    expect(enqueued[1]!.data).not.toHaveProperty("operator");
    const answer = await only(runId, "request.answered");
    expect(answer).toStrictEqual({
      author: "user",
      option_id: "go",
      request_id: request.id,
      operator: "bo",
    });
    const logged = all.filter((e) => e.name === "log.appended").map((e) => e.data);
    expect(logged.find((d) => d.preview === "checked by hand")?.operator).toBe("ana");
    for (const name of ["run.started", "task.started", "request.opened", "run.completed"]) {
      for (const e of all.filter((x) => x.name === name)) {
        expect(e.data, name).not.toHaveProperty("operator");
      }
    }
    const log = (await as("bo", "GET", `/api/runs/${runId}/log`)).body;
    const entry = log.find((e: { text: string }) => e.text === "checked by hand");
    expect(entry.author).toBe("user");
    expect(entry.operator).toBe("ana");
    for (const other of log.filter((e: { text: string }) => e.text !== "checked by hand")) {
      expect(other).not.toHaveProperty("operator");
    }
  });

  it("the CLI prints who: log entries, answers and answered requests", async () => {
    const runId = await submit("ana", "cli");
    const request = await pendingRequest(runId);
    const cli = async (who: Who, ...args: string[]) => {
      const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
      delete env.YARDMASTER_TOKEN;
      delete env.YARDMASTER_URL;
      const { stdout } = await run(
        process.execPath,
        [BIN, ...args, "--url", srv.url, "--token", tokens[who]],
        { env },
      );
      return stdout;
    };
    expect(await cli("bo", "answer", String(request.id), "--option", "stop")).toBe(
      `Request ${request.id} answered with "stop" by bo.\n`,
    );
    await cli("ana", "log", runId, "--write", "a note from ana");
    const log = await cli("bo", "log", runId);
    expect(log).toMatch(/ {2}user by ana {2}\S+\n {4}a note from ana\n/);
    const answered = await cli("ana", "inbox", "--answered", "--run", runId);
    const lines = answered.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^\s*ID\s+RUN\s+TASK\s+PROMPT\s+ANSWER\s+ANSWERED BY$/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^\\s*${request.id}\\s.*"stop"\\s+bo$`));
  });

  it("records who paused, resumed, moved, cancelled, reran, retried and set a status", async () => {
    const runId = await submit("ana", "operations");
    const request = await pendingRequest(runId);
    expect((await as("bo", "POST", `/api/runs/${runId}/pause`)).status).toBe(200);
    expect(await only(runId, "run.paused")).toStrictEqual({ operator: "bo" });
    expect((await as("ana", "POST", `/api/runs/${runId}/resume`)).status).toBe(200);
    expect(await only(runId, "run.resumed")).toStrictEqual({ operator: "ana" });
    const other = await submit("bo", "ahead");
    await pendingRequest(other);
    const moved = await as("operator", "POST", `/api/runs/${other}/position`, { index: 0 });
    expect(moved.status).toBe(200);
    expect((await only(other, "run.reordered")).operator).toBe("operator");
    const edited = await as("bo", "PATCH", `/api/runs/${runId}`, { title: "renamed" });
    expect(edited.status).toBe(200);
    expect(await only(runId, "run.updated")).toStrictEqual({
      changed: { title: "renamed" },
      operator: "bo",
    });

    expect((await as("bo", "POST", `/api/runs/${runId}/cancel`)).status).toBe(200);
    expect((await only(runId, "run.cancelled")).operator).toBe("bo");
    const cancelledTask = await only(runId, "task.cancelled");
    expect(cancelledTask).toMatchObject({ reason: "cancel", operator: "bo" });
    const rerun = await as("ana", "POST", `/api/runs/${runId}/rerun`, { node: "decide" });
    expect(rerun.status).toBe(200);
    const enqueued = (await events(runId)).filter((e) => e.name === "task.enqueued");
    expect(enqueued.at(-1)!.data).toMatchObject({ reason: "rerun", operator: "ana" });
    expect(
      (await events(runId)).filter((e) => e.name === "run.updated").at(-1)!.data,
    ).toMatchObject({ operator: "ana" });

    // The rerun asks again; bo sets its status to dead_letter, ana retries it.
    const again = await eventually(async () => {
      const list = (await as("bo", "GET", `/api/requests?run=${runId}&pending=true`)).body;
      return list.find((r: { id: number }) => r.id !== request.id);
    }, "the rerun asks");
    const set = await as("bo", "POST", `/api/tasks/${again.task_id}/status`, {
      status: "dead_letter",
    });
    expect(set.status).toBe(200);
    expect(await only(runId, "task.status_set")).toMatchObject({
      to: "dead_letter",
      operator: "bo",
    });
    const retried = await as("ana", "POST", `/api/tasks/${again.task_id}/retry`);
    expect(retried.status).toBe(200);
    const retry = (await events(runId)).filter((e) => e.name === "task.enqueued").at(-1)!;
    expect(retry.data.operator).toBe("ana");
    expect(retried.body.task_id).toBeGreaterThan(again.task_id);
    const move = await as("bo", "POST", `/api/tasks/${retried.body.task_id}/move`, {
      node: "done",
    });
    expect(move.status).toBe(200);
    expect(await only(runId, "task.moved")).toStrictEqual({
      new_task_id: move.body.task_id,
      node: "decide",
      to: "done",
      operator: "bo",
    });
  });

  it("records who acted in bulk", async () => {
    const a = await submit("ana", "bulk a");
    const b = await submit("ana", "bulk b");
    await pendingRequest(a);
    await pendingRequest(b);
    const bulk = await as("bo", "POST", "/api/runs/bulk", { action: "cancel", run_ids: [a, b] });
    expect(bulk.status).toBe(200);
    expect(bulk.body.done).toBe(2);
    for (const id of [a, b]) expect((await only(id, "run.cancelled")).operator).toBe("bo");
  });

  it("token rotate --operator changes that operator's token only", async () => {
    const rotate = (operator: string) =>
      run(process.execPath, [
        BIN,
        "token",
        "rotate",
        "--config",
        join(dir, "yardmaster.toml"),
        "--operator",
        operator,
      ]);
    const before = { ...tokens };
    const { stdout } = await rotate("ana");
    const fresh = stdout.trimEnd().split("\n").at(-1)!;
    expect(tokenOf("tokens/ana")).toBe(fresh);
    expect(fresh).not.toBe(before.ana);
    expect(tokenOf("tokens/bo")).toBe(before.bo);
    expect(tokenOf(".yardmaster/operator-token")).toBe(before.operator);
    const old = await srv.call("GET", "/api/me", undefined, {
      authorization: `Bearer ${before.ana}`,
    });
    expect(old.body.authenticated).toBe(false);
    tokens.ana = fresh;
    expect((await as("ana", "GET", "/api/me")).body.operator).toBe("ana");
    expect((await as("bo", "GET", "/api/me")).body.operator).toBe("bo");
    expect((await as("operator", "GET", "/api/me")).body.operator).toBe("operator");

    const unknown = await rotate("cy").catch((err) => err);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("no operator cy is configured (operators: ana, bo)");
    expect(tokenOf("tokens/ana")).toBe(fresh);
  });
});
