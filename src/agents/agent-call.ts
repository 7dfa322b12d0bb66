// One `ctx.agent(...)` call: start the agent, hold the ACP conversation (prompt, repair turns)
// until a valid submission exists, and always end the process with the call, whichever way it
// ends: a result, a failure, the agent's own timeout, or the attempt being stopped (cancel,
// move, node timeout, shutdown).
import type { ClientConnection, SessionNotification } from "@agentclientprotocol/sdk/unstable";
import { methods } from "@agentclientprotocol/sdk/unstable";
import type { AttemptCommands } from "../engine/index.ts";
import type { AgentSessions } from "../service/agent/agent-sessions.ts";
import { connectAgent, initializeRequest, newSessionRequest } from "./acp-client.ts";
import { AgentFailure, failureOf, reasonOf, stopFailure } from "./agent-failure.ts";
import type { AgentCallSpec } from "./agent-options.ts";
import { type AgentProcess, spawnAgent } from "./agent-process.ts";
import { StatsCollector } from "./agent-stats.ts";
import { ChunkWriter } from "./chunk-writer.ts";
import { PermissionGate } from "./permissions.ts";
import { type DeliveryInfo, firstPrompt, repairPrompt } from "./prompts.ts";
import { recordSessionEnd } from "./session-end.ts";
import { StopSignal } from "./stop-signal.ts";
import { Transcript } from "./transcript.ts";

/** How long an agent gets to exit after SIGTERM before its group is killed. */
export const KILL_GRACE_MS = 1500;

export interface AgentCallDeps {
  publicUrl(): Promise<string>;
  sessions: AgentSessions;
  version: string;
}

export class AgentCall {
  readonly #stats: StatsCollector;
  readonly #transcript = new Transcript();
  readonly #chunks: ChunkWriter;
  readonly #stop: StopSignal;
  readonly #gate: PermissionGate;
  readonly #info: DeliveryInfo;
  #proc: AgentProcess | null = null;
  #conn: ClientConnection | null = null;
  /** Errors of the submissions refused during the current turn. */
  #rejections: unknown[] = [];
  /** The submission the call resolves with, once a turn ended with one. */
  #result: number | null = null;

  constructor(
    private readonly attempt: AttemptCommands,
    private readonly spec: AgentCallSpec,
    private readonly deps: AgentCallDeps,
    /** The call's number within the attempt (its result is recorded under it). */
    private readonly call: number,
  ) {
    this.#stats = new StatsCollector(attempt.task.node, attempt.task.attempt);
    this.#chunks = new ChunkWriter(attempt);
    this.#stop = new StopSignal(attempt.signal, spec.timeout, spec.name, (sessionId) => {
      void this.#conn?.agent.notify(methods.agent.session.cancel, { sessionId }).catch(() => {});
    });
    this.#gate = new PermissionGate(attempt, spec.permissions, this.#stop.signal, this.#stats);
    this.#info = { taskId: attempt.task.id, outputSchema: spec.outputSchema };
  }

  /** Runs the call; the attempt's agent session must be open (see `openAgentSession`). */
  async run(): Promise<unknown> {
    const unwatch = this.attempt.watch({
      rejected: (errors) => this.#rejections.push(errors),
      ended: () =>
        this.#stop.halt(new AgentFailure("cancelled", "the attempt ended before its agent")),
    });
    let failure: unknown = null;
    try {
      return await this.#stop.guard(this.#start());
    } catch (err) {
      failure = await failureOf(err, this.#stop.signal, this.#proc, this.spec.name);
      throw failure;
    } finally {
      unwatch();
      await this.#end(failure);
    }
  }

  async #start(): Promise<unknown> {
    const { task } = this.attempt;
    const baseline = (await this.attempt.submissions()).at(-1)?.id ?? 0;
    const url = await this.deps.publicUrl();
    this.#throwIfStopped();
    const token = await this.attempt.issueToken();
    this.#throwIfStopped();
    this.#proc = spawnAgent(this.spec.config, {
      YARDMASTER_URL: url,
      YARDMASTER_TASK_ID: String(task.id),
      YARDMASTER_TOKEN: token,
    });
    this.#stop.watchExit(this.#proc);
    return this.#converse(url, token, baseline);
  }

  /** A stop that came while an early step ran (outside any guard) starts nothing more. */
  #throwIfStopped(): void {
    if (this.#stop.signal.aborted) throw this.#stop.signal.reason;
  }

  /** initialize, then session/new (with the task's MCP server when the agent speaks HTTP). */
  async #openSession(url: string, token: string) {
    const conn = connectAgent(this.#proc!, {
      update: (n) => this.#onUpdate(n),
      permission: (p) => this.#gate.handle(p),
    });
    this.#conn = conn;
    const init = await this.#stop.guard(
      conn.agent.request(methods.agent.initialize, initializeRequest(this.deps.version)),
    );
    // The spec offers the MCP server to every agent; only one that says it has no MCP over
    // HTTP (`http: false`) goes without, as ACP asks of a client that was told so.
    const http = init.agentCapabilities?.mcpCapabilities?.http !== false;
    const mcp = http ? { url: `${url}/mcp/agent`, token } : null;
    const session = await this.#stop.guard(
      conn.agent.request(methods.agent.session.new, newSessionRequest(this.spec.config.cwd, mcp)),
    );
    this.#stop.sessionId = session.sessionId;
    this.#stats.session(session);
    return { conn, sessionId: session.sessionId };
  }

  /** Prompt turns until a submission newer than `baseline` exists; at most `repair` repairs. */
  async #converse(url: string, token: string, baseline: number): Promise<unknown> {
    const { conn, sessionId } = await this.#openSession(url, token);
    const guard = <T>(p: Promise<T>) => this.#stop.guard(p);
    let prompt = firstPrompt(this.spec.prompt, this.#info);
    for (let turn = 0; ; turn += 1) {
      this.#rejections = [];
      const res = await guard(
        conn.agent.request(methods.agent.session.prompt, { sessionId, prompt }),
      );
      this.#stats.turnUsage(res.usage);
      const latest = (await this.attempt.submissions()).at(-1);
      if (latest && latest.id > baseline) {
        this.#result = latest.id;
        return latest.payload;
      }
      if (res.stopReason !== "end_turn") throw stopFailure(res.stopReason, this.spec.name);
      if (turn >= this.spec.repair) {
        const tries = turn === 0 ? "" : ` after ${turn} repair turns`;
        throw new AgentFailure(
          "no_submission",
          `agent ${this.spec.name} submitted nothing valid${tries}`,
        );
      }
      prompt = await this.#repair(turn + 1);
    }
  }

  #onUpdate(notification: SessionNotification): void {
    this.#stats.observe(notification.update);
    for (const chunk of this.#transcript.chunksOf(notification.update)) this.#chunks.push(chunk);
  }

  async #repair(turn: number) {
    const reason = this.#rejections.length ? "rejected" : "nothing_submitted";
    await this.attempt.announceRepair(reason, turn);
    this.#stats.repairTurns = turn;
    return repairPrompt(reason, this.#rejections, this.#info);
  }

  async #end(failure: unknown): Promise<void> {
    // Whatever still waits (a person's answer to a permission request) ends with the session.
    this.#stop.sessionId = null;
    this.#stop.halt(new Error("the agent session ended"));
    this.#stop.dispose();
    const terminated = this.#proc?.terminate(KILL_GRACE_MS) ?? Promise.resolve();
    try {
      await this.#gate.settled();
      this.#conn?.close();
      await this.#chunks.close();
      const reason = failure === null ? null : reasonOf(failure);
      const stats = this.#stats.finish(this.#transcript.toolCalls, reason);
      // Stats are written while the process winds down: on shutdown the store closes soon.
      const result = this.#result === null ? null : { submission: this.#result, call: this.call };
      await Promise.all([
        terminated,
        recordSessionEnd(this.attempt, this.spec.name, stats, result),
      ]);
    } catch {
      // Recording is best effort (the run may have been deleted); the process still ends.
      await terminated;
    } finally {
      this.deps.sessions.close(this.attempt.task.id);
    }
  }
}
