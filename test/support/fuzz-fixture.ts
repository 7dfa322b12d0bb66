// The server the OpenAPI fuzz test drives: `yardmaster serve` (through serve.ts) on a
// real SQLite file in a temp folder, with the operator token required, and seeded so that path
// parameters can name real things: finished runs, node requests waiting on a person (ctx.ask),
// and a live agent attempt (its task token, and a request the agent opened itself). Fuzzed
// requests may delete or cancel any of it, so `refresh` puts back what is missing before each
// operation and answers the ids and tokens that exist now.
import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { call } from "./http-client.ts";
import { type Served, serve } from "./serve.ts";
import { AGENT_COMMAND } from "./serve-folders.ts";
import { eventually } from "./wait.ts";

// The agent opens a request over HTTP, then waits until its session is cancelled: its token
// stays valid for as long as the fuzz runs.
const AGENT_SCRIPT = JSON.stringify({ turns: [[{ ask: "Which way?" }, { hang: true }]] });

const FLOWS = `import { workflow } from "yardmaster";

export const chain = workflow("chain");
chain.node({ start: true }, async function begin({ finish }, input: { title: string }) {
  return finish(input.title.length);
});
chain.node(async function finish({}, n: number) {
  return n + 1;
});

export const asker = workflow("asker");
asker.node({ start: true }, async function choose({ settle }, _input: unknown, ctx) {
  return settle(await ctx.ask({ prompt: "Go on?", options: ["yes", "no"] }));
});
asker.node(async function settle({}, choice: unknown) {
  return choice;
});
asker.action({
  name: "note",
  title: "Add a note",
  scope: "run",
  input: { type: "object", required: ["text"], properties: { text: { type: "string", minLength: 1 } } },
  handler: async (input: { text: string }, _scope: unknown, ctx: any) => ({ log_id: await ctx.log(input.text) }),
});
asker.panel({
  name: "state",
  slot: "run",
  placement: "card",
  kind: "markdown",
  scope: "run",
  data: async (_scope: unknown, ctx: any) => "Status: " + (await ctx.run()).status,
});

export const former = workflow("former");
former.node({ start: true }, async function fill({}, _input: unknown, ctx) {
  const schema = { type: "object", required: ["count"], properties: { count: { type: "integer", minimum: 0 } } };
  return ctx.ask({ prompt: "How many?", schema });
});

export const agentic = workflow("agentic");
agentic.node({ start: true }, async function delegate({}, _input: unknown, ctx) {
  return ctx.agent({ prompt: ${JSON.stringify(AGENT_SCRIPT)}, ask: "http" });
});
`;

/** A bound on each of the fixture's own calls, so a server that stopped answering fails the test. */
const CALL_BOUND_MS = 20_000;

/** Each seeded workflow and its pool: the agent has a pool of its own, so it never starves the rest. */
const POOLS: Record<string, string> = {
  chain: "default",
  asker: "default",
  former: "default",
  agentic: "agents",
};

const toml = (dir: string) => `[server]
host = "127.0.0.1"
port = 0
require_token = true
store = "sqlite:store.db"

[pools.default]
capacity = 4

[pools.agents]
capacity = 1

${Object.entries(POOLS)
  .map(
    ([name, pool]) =>
      `[workflows.${name}]\ntarget = "${join(dir, "flows.ts")}:${name}"\npool = "${pool}"\n`,
  )
  .join("\n")}
[agents.default]
command = ${AGENT_COMMAND}
`;

export interface FixtureState {
  runIds: string[];
  taskIds: number[];
  requestIds: number[];
  workflows: string[];
  nodes: string[];
  /** What the plugin manifest lists, by workflow (`_builtin` included). */
  plugins: Array<{ workflow: string; actions: string[]; panels: string[] }>;
  agent: { taskId: number; token: string; requestIds: number[] };
  /** Task tokens of agent attempts that have ended. */
  staleTokens: string[];
}

export interface Fixture {
  served: Served;
  dir: string;
  store: string;
  operator: string;
  /** The seeded workflows' names. */
  workflows: string[];
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  refresh(): Promise<FixtureState>;
}

export async function startFixture(dir: string, children: ChildProcess[]): Promise<Fixture> {
  writeFileSync(join(dir, "flows.ts"), FLOWS);
  writeFileSync(join(dir, "yardmaster.toml"), toml(dir));
  const served = await serve({ dir, children });
  // A server that requires a token and finds none writes one (docs/configuration.md).
  const operator = readFileSync(join(dir, ".yardmaster", "operator-token"), "utf8").trim();
  const api: Fixture["api"] = (method, path, body) =>
    call(served.url, path, {
      signal: AbortSignal.timeout(CALL_BOUND_MS),
      method,
      headers: { authorization: `Bearer ${operator}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /** A read the fixture relies on: anything but 200 is the server failing, said as such. */
  const read = async (path: string): Promise<any> => {
    const res = await api("GET", path);
    if (res.status !== 200)
      throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const staleTokens: string[] = [];
  let agent: FixtureState["agent"] | undefined;

  const submit = async (workflow: string) => {
    const res = await api("POST", `/api/workflows/${workflow}/runs`, { title: `seed ${workflow}` });
    if (res.status !== 201) throw new Error(`seeding ${workflow}: ${JSON.stringify(res.body)}`);
    return res.body.run_id as string;
  };

  async function ensureWorkflows(): Promise<void> {
    const listed = (await read("/api/workflows")) as Array<{
      name: string;
      pool: string;
    }>;
    for (const [name, pool] of Object.entries(POOLS)) {
      const found = listed.find((w) => w.name === name);
      const target = `${join(dir, "flows.ts")}:${name}`;
      if (!found) await api("POST", "/api/workflows", { target, pool });
      else if (found.pool !== pool) await api("PUT", `/api/workflows/${name}`, { target, pool });
    }
  }

  async function ensurePendingAsk(): Promise<void> {
    const pending = (await read("/api/requests?pending=true")) as Array<{
      node: string;
    }>;
    if (pending.some((r) => r.node === "choose")) return;
    const runId = await submit("asker");
    await eventually(
      async () => (await read(`/api/requests?pending=true&run=${runId}`)).length > 0,
      "a pending ask",
      20_000,
    );
  }

  /** The live agent attempt: the one whose task accepts the token the agent wrote last. */
  async function findAgent(): Promise<FixtureState["agent"] | undefined> {
    const tokenFile = join(dir, "token");
    if (!existsSync(tokenFile)) return undefined;
    const token = readFileSync(tokenFile, "utf8");
    const runs = (await read("/api/runs?workflow=agentic")) as Array<{
      id: string;
      status: string;
    }>;
    for (const run of runs.filter((r) => r.status === "running" || r.status === "paused")) {
      const detail = await read(`/api/runs/${run.id}`);
      for (const task of detail.tasks ?? []) {
        if (task.status !== "in_progress") continue;
        const own = await call(served.url, `/api/agent/tasks/${task.id}`, {
          signal: AbortSignal.timeout(CALL_BOUND_MS),
          headers: { "x-service-token": token },
        });
        if (own.status !== 200) continue;
        const asked = (await read(`/api/runs/${run.id}/requests`)) as Array<{
          id: number;
          task_id: number;
        }>;
        const requestIds = asked.filter((r) => r.task_id === task.id).map((r) => r.id);
        if (requestIds.length) return { taskId: task.id, token, requestIds };
      }
    }
    return undefined;
  }

  async function ensureAgent(): Promise<void> {
    if (agent) {
      const own = await call(served.url, `/api/agent/tasks/${agent.taskId}`, {
        signal: AbortSignal.timeout(CALL_BOUND_MS),
        headers: { "x-service-token": agent.token },
      });
      if (own.status === 200) return;
      if (!staleTokens.includes(agent.token)) staleTokens.push(agent.token);
      agent = undefined;
    }
    agent = await findAgent();
    if (agent) return;
    await submit("agentic");
    agent = await eventually(findAgent, "a live agent with its task token", 30_000);
  }

  async function refresh(): Promise<FixtureState> {
    await ensureWorkflows();
    await ensurePendingAsk();
    await ensureAgent();
    const runs = (await read("/api/runs")) as Array<{ id: string }>;
    const runIds = runs.map((r) => r.id);
    // The first runs are the seeded ones; the last are what the fuzz created lately.
    const sampled = [...new Set([...runIds.slice(0, 4), ...runIds.slice(-3)])];
    const details = await Promise.all(sampled.map((id) => read(`/api/runs/${id}`)));
    const taskIds = details.flatMap((d) => (d.tasks ?? []).map((t: { id: number }) => t.id));
    const requests = (await read("/api/requests")) as Array<{
      id: number;
      pending: boolean;
    }>;
    // Every request a person can still answer, and the latest of the rest.
    const pending = requests.filter((r) => r.pending).map((r) => r.id);
    const requestIds = [...new Set([...pending, ...requests.slice(-6).map((r) => r.id)])];
    const workflows = (await read("/api/workflows")) as Array<{
      name: string;
      nodes: Record<string, unknown>;
    }>;
    const plugins = (await read("/api/plugins")) as Array<{
      workflow: string;
      actions: Array<{ name: string }>;
      panels: Array<{ name: string }>;
    }>;
    return {
      runIds: sampled,
      taskIds,
      requestIds,
      workflows: workflows.map((w) => w.name),
      nodes: [...new Set(workflows.flatMap((w) => Object.keys(w.nodes)))],
      plugins: plugins.map((p) => ({
        workflow: p.workflow,
        actions: p.actions.map((a) => a.name),
        panels: p.panels.map((a) => a.name),
      })),
      agent: agent!,
      staleTokens: [...staleTokens],
    };
  }

  // Two finished runs, so tasks exist that retry, rerun and move can act on.
  const done = [await submit("chain"), await submit("chain")];
  for (const id of done) {
    await eventually(
      async () => (await read(`/api/runs/${id}`)).status === "completed",
      "a seeded run to complete",
      20_000,
    );
  }
  await submit("former");
  const workflows = Object.keys(POOLS);
  return { served, dir, store: join(dir, "store.db"), operator, workflows, api, refresh };
}
