// A real server whose `[agents.*]` run the scripted ACP agent (examples/agents/scripted-agent.mjs)
// and whose workflows are test/fixtures/agents/flows.ts, with every published event recorded
// and bounded waits.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { EventRecord } from "../../src/engine/domain.ts";
import { startTestServer, type TestServer } from "./server-harness.ts";
import { eventually } from "./wait.ts";

export const SCRIPTED_AGENT = join(
  import.meta.dirname,
  "..",
  "..",
  "examples",
  "agents",
  "scripted-agent.mjs",
);
export const FLOWS = join(import.meta.dirname, "..", "fixtures", "agents", "flows.ts");

export interface AgentServer extends TestServer {
  events: EventRecord[];
  /** Starts a run of `workflow` whose description carries the `ctx.agent` options. */
  start(workflow: string, options: Record<string, unknown>, title?: string): Promise<string>;
  waitEvent(name: string, match?: (e: EventRecord) => boolean, ms?: number): Promise<EventRecord>;
  named(name: string, runId?: string): EventRecord[];
  /** Every chunk of the task's transcript, read through the HTTP stream endpoint. */
  transcript(taskId: number): Promise<Array<{ seq: number; kind: string; text: string }>>;
  /** What follows `<prefix>:` on a line of the agent's text, once it said it. */
  said(taskId: number, prefix: string): Promise<string>;
}

/**
 * Whether the process still runs. A zombie counts as ended: in a container whose init does not
 * reap orphans, a killed grandchild may linger as one forever.
 */
export const pidAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true; // no /proc here: kill(pid, 0) is all there is to know
  }
};

function toml(capacity: number, agentExtra: string): string {
  return [
    "[server]",
    'host = "127.0.0.1"',
    "port = 0",
    "",
    "[pools.default]",
    `capacity = ${capacity}`,
    "",
    ...["agentic", "hurried", "twice", "quick", "overlap"].flatMap((n) => [
      `[workflows.${n}]`,
      `target = "${FLOWS}:${n}"`,
      "",
    ]),
    "[agents.default]",
    `command = [${JSON.stringify(process.execPath)}, ${JSON.stringify(SCRIPTED_AGENT)}]`,
    agentExtra,
    "",
    "[agents.plain]",
    `command = [${JSON.stringify(process.execPath)}]`,
    `args = [${JSON.stringify(SCRIPTED_AGENT)}]`,
    'env = { SCRIPTED_AGENT_NO_HTTP = "1", SCRIPTED_AGENT_EXTRA = "plain" }',
    "",
    "[agents.missing]",
    'command = ["/nonexistent/agent-binary"]',
    "",
    "[agents.bare]",
    `command = [${JSON.stringify(process.execPath)}, ${JSON.stringify(SCRIPTED_AGENT)}]`,
    'env = { SCRIPTED_AGENT_NO_CAPS = "1" }',
  ].join("\n");
}

/** Pass `reuseDir` (a stopped server's `dir`) to restart on the same store. */
export async function startAgentServer(
  options: { capacity?: number; agentExtra?: string; reuseDir?: string } = {},
): Promise<AgentServer> {
  const config = toml(options.capacity ?? 4, options.agentExtra ?? "");
  const server = await startTestServer(config, options.reuseDir);
  const events: EventRecord[] = [];
  server.engine.bus.subscribe((e) => events.push(e));
  const waitEvent: AgentServer["waitEvent"] = (name, match = () => true, ms = 15_000) =>
    eventually(async () => events.find((e) => e.name === name && match(e)), `event ${name}`, ms);
  const transcript: AgentServer["transcript"] = async (taskId) => {
    const res = await server.call("GET", `/api/tasks/${taskId}/stream?after=0&limit=1000`);
    return res.body.chunks;
  };
  return {
    ...server,
    events,
    async start(workflow, opts, title = "t") {
      const body = { title, description: JSON.stringify(opts) };
      const res = await server.call("POST", `/api/workflows/${workflow}/runs`, body);
      if (res.status !== 201) throw new Error(`submit failed: ${JSON.stringify(res.body)}`);
      return res.body.run_id as string;
    },
    waitEvent,
    named: (name, runId) =>
      events.filter((e) => e.name === name && (runId === undefined || e.run_id === runId)),
    transcript,
    said: (taskId, prefix) =>
      eventually(async () => {
        const text = (await transcript(taskId))
          .filter((c) => c.kind === "text")
          .map((c) => c.text)
          .join("");
        const line = text.split("\n").find((l) => l.startsWith(`${prefix}:`));
        return line?.slice(prefix.length + 1);
      }, `the agent to say ${prefix}`),
  };
}
