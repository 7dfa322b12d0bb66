// Folders and configurations for tests that start `yardmaster serve` (serve.ts): the scripted
// ACP agent behind a shell that leaves its task token (`token`) and its pid, which is also its
// process group (`agent.pid`; exec keeps the pid), in the folder, and counts the agents started
// (`starts`); a one-node workflow folder; and the health probe that tells a free event loop.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCRIPTED_AGENT } from "./agent-server.ts";
import { call } from "./http-client.ts";

export const AGENT_COMMAND = JSON.stringify([
  "sh",
  "-c",
  `printf %s "$YARDMASTER_TOKEN" > token; echo $$ > agent.pid; echo $$ >> starts; exec node ${SCRIPTED_AGENT}`,
]);

/** A fixed port, so an orphaned agent's URL reaches the restarted server too. */
export const somePort = () => 20000 + Math.floor(Math.random() * 20000);

/** A config serving the one workflow `name` (from `<name>.ts`) with the agent above, on `port`. */
export const agentConfig = (name: string, port: number) => `[server]
host = "127.0.0.1"
port = ${port}
[pools.default]
capacity = 2
[workflows.${name}]
target = "${name}.ts:${name}"
[agents.default]
command = ${AGENT_COMMAND}
`;

/** The first pending request of run `runId`. */
export const pendingOf = async (url: string, runId: string) =>
  (await call(url, `/api/requests?pending=true&run=${runId}`)).body[0];

/** The `[workflows.flow]` row of the workflow `flowFolder` writes. */
export const FLOW_ROW = '[workflows.flow]\ntarget = "flow.ts:flow"\n';

/**
 * A fresh folder for `serve`: a one-node workflow `flow` in `flow.ts`, and a configuration on
 * 127.0.0.1 with an OS-chosen port, `serverKeys` added to its [server] table and `rows` after.
 */
export function flowFolder(prefix: string, serverKeys = "", rows = ""): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(
    join(dir, "flow.ts"),
    `import { workflow } from "yardmaster";
export const flow = workflow("flow");
flow.node({ start: true }, async function only() { return 1; });
`,
  );
  const server = `[server]\nhost = "127.0.0.1"\nport = 0\n${serverKeys}\n`;
  writeFileSync(join(dir, "yardmaster.toml"), `${server}${rows}`);
  return dir;
}

/**
 * True when the server answers its health check: its event loop is free. The wait is generous
 * and bounded, so a stalled server fails a test instead of hanging it; never a timing claim.
 */
export async function answersHealth(url: string): Promise<boolean> {
  const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(15_000) });
  return res.status === 200;
}
