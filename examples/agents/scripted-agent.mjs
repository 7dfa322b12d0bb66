// A real ACP agent, speaking over stdio through @agentclientprotocol/sdk: the tests drive it, and
// examples/scribe.ts runs it (examples/scribe.toml) so a newcomer can watch a transcript stream. What it does
// is chosen by the first text block of its first prompt: a JSON script
//   { "turns": [[step, ...], ...] }   turn i (0 = the first prompt, then repair turns) runs
//                                     turns[i], or the last entry when there are fewer
// Steps (one key each):
//   text / thought: string              an agent message / thought chunk
//   tool: { id, title, kind, input, output, status }   a tool call and its completed update
//   plan: [string]                      a plan update
//   permission: title                   asks for permission, then says `permission:<outcome>`
// (markers such as `pid:<n>` are said on a line of their own)
//   submit: value                       POST .../submit with the env token ("$permission" is
//                                       replaced by the last permission outcome)
//   submit_via_mcp: value               calls the `submit_result` tool of the session's MCP server
//   ask: prompt                         POST .../ask with the env token, and does not wait
//   usage: { input, output }            token usage reported with this turn's response
//   cost: number                        a usage_update carrying the session's cost
//   pid: true                           says `pid:<its pid>`
//   child: true                         starts a grandchild process and says `child:<its pid>`
//   env: true                           says `env:<JSON of what it was given>` (no token values)
//   sleep: ms | hang: true              waits (hang: until session/cancel, then ends cancelled)
//   ignore_term: true                   from now on ignores SIGTERM and stdin closing
//   exit: code                          exits at once, after a line on stderr
//   exit_after: ms                      goes on, and exits with code 4 after that long
//   stop: stopReason                    ends the turn with this stop reason
// A prompt that is not JSON is answered by submitting { echo: <prompt> }.
// Env SCRIPTED_AGENT_NO_HTTP=1 makes it say it has no MCP over HTTP; SCRIPTED_AGENT_NO_CAPS=1
// makes it advertise no capabilities at all.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { agent, methods, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk/unstable";

const state = { script: null, turn: 0, mcp: null, permission: null, cancel: null, children: [] };
const env = process.env;

function scriptOf(prompt) {
  const first = prompt.find((b) => b.type === "text")?.text ?? "";
  try {
    return JSON.parse(first);
  } catch {
    return { turns: [[{ submit: { echo: first } }]] };
  }
}

async function submit(value, token) {
  const payload = value === "$permission" ? { permission: state.permission } : value;
  const url = `${env.YARDMASTER_URL}/api/agent/tasks/${env.YARDMASTER_TASK_ID}/submit`;
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-token": token },
    body: JSON.stringify(payload),
  });
  await res.text();
}

/** Opens a request over HTTP (ask policy `http`) and says its id; never polls for the answer. */
async function askOperator(prompt, token) {
  const url = `${env.YARDMASTER_URL}/api/agent/tasks/${env.YARDMASTER_TASK_ID}/ask`;
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-token": token },
    body: JSON.stringify({ prompt }),
  });
  if (!res.ok) process.stderr.write(`ask refused: ${await res.text()}\n`);
}

/** A real MCP client on the server the session was given, with the headers it came with. */
async function submitViaMcp(value) {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StreamableHTTPClientTransport } = await import(
    "@modelcontextprotocol/sdk/client/streamableHttp.js"
  );
  const headers = Object.fromEntries(state.mcp.headers.map((h) => [h.name, h.value]));
  const transport = new StreamableHTTPClientTransport(new URL(state.mcp.url), {
    requestInit: { headers },
  });
  const mcp = new Client({ name: "scripted-agent", version: "1.0.0" });
  await mcp.connect(transport);
  const result = await mcp.callTool({ name: "submit_result", arguments: { result: value } });
  await mcp.close();
  if (result.isError) process.stderr.write(`submit_result refused: ${JSON.stringify(result)}\n`);
}

function say(client, sessionId, text, kind = "agent_message_chunk") {
  const update = { sessionUpdate: kind, content: { type: "text", text } };
  return client.notify(methods.client.session.update, { sessionId, update });
}

function update(client, sessionId, update) {
  return client.notify(methods.client.session.update, { sessionId, update });
}

async function askPermission(client, sessionId, title) {
  const response = await client.request(methods.client.session.requestPermission, {
    sessionId,
    toolCall: { toolCallId: `perm-${Date.now()}`, title, kind: "execute", rawInput: { title } },
    options: [
      { optionId: "allow", name: "Allow", kind: "allow_once" },
      { optionId: "reject", name: "Reject", kind: "reject_once" },
    ],
  });
  const outcome = response.outcome;
  state.permission = outcome.outcome === "selected" ? outcome.optionId : "cancelled";
  await say(client, sessionId, `permission:${state.permission}\n`);
}

async function tool(client, sessionId, t) {
  const id = t.id ?? `tool-${Date.now()}`;
  await update(client, sessionId, {
    sessionUpdate: "tool_call",
    toolCallId: id,
    title: t.title ?? "tool",
    kind: t.kind ?? "other",
    status: "in_progress",
    rawInput: t.input,
  });
  await update(client, sessionId, {
    sessionUpdate: "tool_call_update",
    toolCallId: id,
    status: t.status ?? "completed",
    content: [{ type: "content", content: { type: "text", text: t.output ?? "done" } }],
  });
}

function startChild() {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1e6)"], { stdio: "ignore" });
  state.children.push(child);
  return child.pid;
}

function hang() {
  return new Promise((resolve) => {
    state.cancel = () => resolve("cancelled");
  });
}

async function runStep(step, client, sessionId, turn) {
  if ("text" in step) await say(client, sessionId, step.text);
  else if ("thought" in step) await say(client, sessionId, step.thought, "agent_thought_chunk");
  else if ("tool" in step) await tool(client, sessionId, step.tool);
  else if ("plan" in step) {
    const entries = step.plan.map((content) => ({
      content,
      priority: "medium",
      status: "pending",
    }));
    await update(client, sessionId, { sessionUpdate: "plan", entries });
  } else if ("permission" in step) await askPermission(client, sessionId, step.permission);
  else if ("submit" in step) await submit(step.submit, env.YARDMASTER_TOKEN);
  else if ("submit_via_mcp" in step) await submitViaMcp(step.submit_via_mcp);
  else if ("ask" in step) await askOperator(step.ask, env.YARDMASTER_TOKEN);
  else if ("usage" in step) turn.usage = step.usage;
  else if ("cost" in step) {
    const cost = { amount: step.cost, currency: "USD" };
    await update(client, sessionId, { sessionUpdate: "usage_update", used: 10, size: 100, cost });
  } else if ("pid" in step) await say(client, sessionId, `pid:${process.pid}\n`);
  else if ("child" in step) await say(client, sessionId, `child:${startChild()}\n`);
  else if ("env" in step) await say(client, sessionId, `env:${JSON.stringify(seenEnv())}\n`);
  else if ("sleep" in step) await new Promise((r) => setTimeout(r, step.sleep));
  else if ("hang" in step) turn.stop = await hang();
  else if ("ignore_term" in step) {
    process.on("SIGTERM", () => {});
    setInterval(() => {}, 1e6); // and outlives its stdin closing: only SIGKILL ends it
  } else if ("exit_after" in step) setTimeout(() => process.exit(4), step.exit_after);
  else if ("exit" in step) {
    process.stderr.write("scripted agent exits on purpose\n");
    process.exit(step.exit);
  } else if ("stop" in step) turn.stop = step.stop;
}

function seenEnv() {
  const header = state.mcp?.headers?.find((h) => h.name.toLowerCase() === "x-service-token");
  return {
    url: env.YARDMASTER_URL,
    task_id: env.YARDMASTER_TASK_ID,
    token: Boolean(env.YARDMASTER_TOKEN),
    mcp_url: state.mcp?.url ?? null,
    mcp_type: state.mcp?.type ?? null,
    mcp_token_matches: header ? header.value === env.YARDMASTER_TOKEN : null,
    cwd: process.cwd(),
    extra: env.SCRIPTED_AGENT_EXTRA ?? null,
  };
}

async function prompt({ params, client }) {
  // The script comes with the first prompt; later prompts are the runner's repair prompts.
  state.script ??= scriptOf(params.prompt);
  const script = state.script;
  const turns = script.turns ?? [];
  const steps = turns[Math.min(state.turn, turns.length - 1)] ?? [];
  state.turn += 1;
  const turn = { usage: null, stop: null };
  for (const step of steps) {
    await runStep(step, client, params.sessionId, turn);
    if (turn.stop) break;
  }
  const usage = turn.usage && {
    inputTokens: turn.usage.input,
    outputTokens: turn.usage.output,
    totalTokens: turn.usage.input + turn.usage.output,
  };
  return { stopReason: turn.stop ?? "end_turn", ...(usage ? { usage } : {}) };
}

/** SCRIPTED_AGENT_NO_HTTP=1 says "no MCP over HTTP"; SCRIPTED_AGENT_NO_CAPS=1 says nothing. */
function capabilities() {
  if (env.SCRIPTED_AGENT_NO_CAPS === "1") return {};
  return { mcpCapabilities: { http: env.SCRIPTED_AGENT_NO_HTTP !== "1" } };
}

const app = agent({ name: "scripted-agent" })
  .onRequest(methods.agent.initialize, () => ({
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: capabilities(),
    agentInfo: { name: "scripted-agent", version: "1.0.0" },
  }))
  .onRequest(methods.agent.session.new, ({ params }) => {
    state.mcp = params.mcpServers[0] ?? null;
    return {
      sessionId: `scripted-${process.pid}`,
      configOptions: [
        {
          id: "model",
          name: "Model",
          category: "model",
          type: "select",
          currentValue: "scripted-1",
          options: [{ value: "scripted-1", name: "Scripted 1" }],
        },
      ],
    };
  })
  .onRequest(methods.agent.session.prompt, prompt)
  .onNotification(methods.agent.session.cancel, () => state.cancel?.());

app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
