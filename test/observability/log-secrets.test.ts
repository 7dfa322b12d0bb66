// No credential ever reaches the server's log: a real `yardmaster serve`, logging everything it
// can (`--log-level trace`), with the operator token required and given in YARDMASTER_TOKEN, a
// PostgreSQL store whose URL (in YARDMASTER_STORE) holds a password, and an agent whose task token is used over HTTP
// and over MCP (/mcp/agent). The whole log is searched for each secret; the agent's environment
// too, for the server's own (an agent runs whatever it is told to).
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SCRIPTED_AGENT } from "../support/agent-server.ts";
import { call, post } from "../support/http-client.ts";
import { dropSchemas, freshSchema, postgres, withSchema } from "../support/postgres.ts";
import { PASSWORD_ROLE } from "../support/postgres-cluster.ts";
import { killAll, serve, stop } from "../support/serve.ts";
import { eventually } from "../support/wait.ts";

const children: ChildProcess[] = [];
const schema = freshSchema("logsecrets");
let dir: string;

afterAll(async () => {
  killAll(children);
  if (dir) rmSync(dir, { recursive: true, force: true });
  await dropSchemas([schema]);
});

const WORKFLOW = `import { workflow } from "yardmaster";
export const delegate = workflow("delegate");
delegate.node({ start: true }, async function hand({}, input: { title: string }, ctx) {
  return ctx.agent({ prompt: input.title });
});
`;

/** The scripted agent, behind a shell that leaves its task token and its environment here. */
const AGENT = JSON.stringify([
  "sh",
  "-c",
  `printf %s "$YARDMASTER_TOKEN" > token; env > agent-env; exec node ${SCRIPTED_AGENT}`,
]);

function storeUrl(): string {
  const url = new URL(postgres.url!);
  url.username = PASSWORD_ROLE.user;
  url.password = PASSWORD_ROLE.password;
  return withSchema(url.toString(), schema);
}

describe("the server log", () => {
  it.skipIf(!postgres.ownCluster)(
    "holds no operator token, store password or task token",
    { timeout: 60_000 },
    async () => {
      dir = mkdtempSync(join(tmpdir(), "ym-log-secrets-"));
      writeFileSync(join(dir, "delegate.ts"), WORKFLOW);
      writeFileSync(
        join(dir, "yardmaster.toml"),
        `[server]
port = 0
require_token = true
[pools.default]
capacity = 2
[workflows.delegate]
target = "delegate.ts:delegate"
[agents.default]
command = ${AGENT}
`,
      );
      const operator = randomBytes(24).toString("base64url");
      const log: string[] = [];
      const served = await serve({
        dir,
        children,
        args: ["--log-level", "trace", "--log-format", "json"],
        env: { YARDMASTER_TOKEN: operator, YARDMASTER_STORE: storeUrl() },
        log,
      });
      const bearer = { authorization: `Bearer ${operator}` };

      // The event stream takes the token in its query string.
      const stream = new AbortController();
      const events = await fetch(`${served.url}/api/events?access_token=${operator}`, {
        signal: stream.signal,
      });
      expect(events.status).toBe(200);
      // One step by MCP, one over HTTP, both with the task token.
      const script = { turns: [[{ submit_via_mcp: { via: "mcp" } }, { submit: { via: "http" } }]] };
      const submitted = await call(
        served.url,
        "/api/workflows/delegate/runs",
        post({ title: JSON.stringify(script) }, bearer),
      );
      expect(submitted.status).toBe(201);
      const runId = submitted.body.run_id;
      const run = await eventually(
        async () => {
          const { body } = await call(served.url, `/api/runs/${runId}`, { headers: bearer });
          return body.status === "completed" && body;
        },
        "the run completed",
        30_000,
      );
      expect(run.output).toEqual({ via: "http" });
      const taskToken = readFileSync(join(dir, "token"), "utf8");
      expect(taskToken.length).toBeGreaterThan(10);
      // A token presented once its attempt ended is refused, and that is logged too.
      const taskId = run.tasks[0].id;
      const late = await call(served.url, `/api/agent/tasks/${taskId}`, {
        headers: { "x-service-token": taskToken },
      });
      expect(late.status).toBe(403);
      expect((await call(served.url, "/metrics", { headers: bearer })).status).toBe(200);
      stream.abort();
      await stop(served);
      await served.logged;

      const text = log.join("\n");
      // The log is the real thing: requests with their ids, the agent's calls, engine lines.
      const entries = log.map((line) => JSON.parse(line));
      expect(entries.some((e) => e.msg === "request completed" && e.path === "/mcp/agent")).toBe(
        true,
      );
      expect(entries.some((e) => e.reqId && e.path === `/api/agent/tasks/${taskId}/submit`)).toBe(
        true,
      );
      expect(entries.some((e) => e.path === "/api/events" && e.status === 200)).toBe(true);
      const started = entries.find((e) => e.msg === "attempt started");
      expect(started).toMatchObject({ run_id: runId, task_id: taskId, workflow: "delegate" });
      for (const secret of [operator, PASSWORD_ROLE.password, taskToken]) {
        expect(text).not.toContain(secret);
      }
      // The agent got its task token, and none of the server's own secrets.
      const agentEnv = readFileSync(join(dir, "agent-env"), "utf8");
      expect(agentEnv).toContain(`YARDMASTER_TOKEN=${taskToken}`);
      expect(agentEnv).not.toContain(operator);
      expect(agentEnv).not.toContain(PASSWORD_ROLE.password);
    },
  );
});
