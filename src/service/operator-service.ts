// The OperatorService over one engine: reads build views from the store, writes are the
// engine's commands (engine.commands), whose refusals are read into the error catalogue here.
import {
  type BulkTarget,
  type Engine,
  type Json,
  nextDue,
  type Operator,
  RUN_STATUSES,
  type RunRecord,
  type SchedulePatch as ScheduleChange,
  type ScheduleRecord,
  type StoreProbe,
  type StoreReader,
  type SubmitInput,
  type TaskRecord,
} from "../engine/index.ts";
import { readSource } from "../loading/index.ts";
import type { OperatorService, PageQuery, RequestListQuery, RunListQuery, RunPage } from "./api.ts";
import { commanded, notFound, ServiceError, type ValidationIssue, validation } from "./errors.ts";
import { Explainer } from "./explain.ts";
import { bodyHash } from "./idempotency.ts";
import { MAX_BULK_RUNS } from "./limits.ts";
import {
  countWaitingOnPeople,
  decodeBulkCursor,
  decodeRunCursor,
  encodeRunCursor,
  isWaitingOnPeople,
  readyOf,
  runFilter,
} from "./run-find.ts";
import { checkRunInput } from "./run-input.ts";
import type * as S from "./schemas/index.ts";
import { type JoinArrival, runGraph } from "./views/graph.ts";
import { isoTime } from "./views/iso-time.ts";
import {
  chunkView,
  eventView,
  logView,
  requestView,
  submissionView,
  taskView,
} from "./views/records.ts";
import { type RunFacts, runDetail, runSummary } from "./views/runs.ts";
import { workflowView } from "./views/workflows.ts";

/** A readiness probe that takes longer than this answers 503: a load balancer cannot wait. */
const READY_TIMEOUT_MS = 2000;

// Not ready is the server's state conflicting with the work, for now: `conflict`, with the status
// HTTP has for a server that cannot serve yet (docs/errors.md, "Statuses set by the protocol").
const notReady = (reason: "stopping" | "store" | "schema", message: string) =>
  new ServiceError("conflict", message, { reason }, { status: 503 });

/** `promise`, or a rejection once `ms` have passed. */
function withinTime<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function requireRun(reader: StoreReader, runId: string): Promise<RunRecord> {
  const run = await reader.getRun(runId);
  if (!run) throw notFound("Run", runId);
  return run;
}

async function requireTask(reader: StoreReader, taskId: number): Promise<TaskRecord> {
  const task = await reader.getTask(taskId);
  if (!task) throw notFound("Task", taskId);
  return task;
}

const DEFAULT_PAGE = 100;
const MAX_PAGE = 1000;
const pageLimit = (limit?: number) => Math.min(Math.max(limit ?? DEFAULT_PAGE, 0), MAX_PAGE);

export class EngineOperatorService implements OperatorService {
  readonly startedAt = new Date();

  constructor(
    private readonly engine: Engine,
    private readonly version: string,
  ) {}

  private get store(): StoreReader {
    return this.engine.store;
  }

  private get commands() {
    return this.engine.commands;
  }

  async health(): Promise<S.HealthOut> {
    const pools: Record<string, { capacity: number; in_flight: number }> = {};
    for (const p of this.engine.registry.pools.values()) {
      pools[p.name] = { capacity: p.capacity, in_flight: p.inFlight };
    }
    // Counted in the store's indexes of live rows: health is open to anyone, so it must not
    // cost in proportion to what the store holds.
    const health: S.HealthOut = {
      ok: true,
      version: this.version,
      pools,
      runs_running: await this.store.countRuns("running"),
      tasks_in_progress: await this.store.countTasks("in_progress"),
    };
    const cluster = this.engine.cluster;
    const shared = this.engine.store.cluster;
    if (cluster && shared) {
      health.server_id = cluster.id;
      health.servers = (await shared.servers()).map((s) => ({
        ...s,
        started: isoTime(s.started),
        heartbeat: isoTime(s.heartbeat),
        lease_until: isoTime(s.lease_until),
      }));
    }
    return health;
  }

  async ready(): Promise<S.ReadyOut> {
    if (!this.engine.running) throw notReady("stopping", "The server is stopping.");
    let probe: StoreProbe;
    try {
      probe = await withinTime(this.engine.store.probe(), READY_TIMEOUT_MS);
    } catch (err) {
      throw notReady("store", `The store cannot be reached: ${(err as Error).message}`);
    }
    if (probe.schema !== probe.expected) {
      const detail = `The store's schema is at version ${probe.schema}; this server needs ${probe.expected}.`;
      throw notReady("schema", detail);
    }
    return { ok: true, schema: probe.schema };
  }

  async listSchedules(): Promise<S.ScheduleOut[]> {
    const rows = await this.engine.store.listSchedules();
    return Promise.all(rows.map((s) => this.#scheduleView(s)));
  }

  async getSchedule(name: string): Promise<S.ScheduleOut> {
    const s = await this.engine.store.getSchedule(name);
    if (!s) throw notFound("schedule", name);
    return this.#scheduleView(s);
  }

  async createSchedule(body: S.NewSchedule): Promise<S.ScheduleOut> {
    const wf = this.engine.registry.workflows.get(body.workflow);
    const input = checkRunInput(wf, body.input) as Json | undefined;
    const s = await commanded(this.commands.createSchedule({ ...body, input }));
    return this.#scheduleView(s);
  }

  async updateSchedule(name: string, body: S.SchedulePatch): Promise<S.ScheduleOut> {
    const patch = { ...body } as ScheduleChange;
    if (body.input !== undefined) {
      const current = await this.engine.store.getSchedule(name);
      const wf = current ? this.engine.registry.workflows.get(current.workflow) : undefined;
      patch.input = (checkRunInput(wf, body.input) ?? null) as Json;
    }
    const s = await commanded(this.commands.updateSchedule(name, patch));
    return this.#scheduleView(s);
  }

  async deleteSchedule(name: string): Promise<S.Ok> {
    await commanded(this.commands.deleteSchedule(name));
    return { ok: true };
  }

  async #scheduleView(s: ScheduleRecord): Promise<S.ScheduleOut> {
    const last = await this.engine.store.lastScheduleFire(s.name);
    const next = s.enabled ? nextDue(s.cron, s.timezone, this.engine.clock.now()) : null;
    const { name, workflow, cron, timezone, title, input, enabled, catchup, source } = s;
    return {
      ...{ name, workflow, cron, timezone, title, input, enabled, catchup, source },
      next_fire: next === null ? null : isoTime(next),
      last_fire: last ? isoTime(last.scheduled_at) : null,
      last_run_id: last?.run_id ?? null,
    };
  }

  async listWorkflows(): Promise<S.WorkflowOut[]> {
    const names = [...this.engine.registry.workflows.keys()].sort();
    return names.map((n) => this.#workflow(n));
  }

  async getWorkflow(name: string): Promise<S.WorkflowOut> {
    return this.#workflow(name);
  }

  async workflowSource(name: string): Promise<S.SourceOut> {
    const wf = this.engine.registry.workflows.get(name);
    if (!wf) throw new ServiceError("unknown_workflow", `Workflow ${name} is not registered.`);
    const source = wf.loaded ? await readSource(wf.loaded) : null;
    if (!source) {
      throw new ServiceError(
        "not_found",
        `The source of workflow ${name} cannot be produced (not loaded from a file, or the file is gone).`,
      );
    }
    return source;
  }

  // Read from the store's failed and dead-lettered attempts (every workflow's: the store has no
  // index by workflow), so it costs in proportion to the failures kept.
  async workflowFailures(name: string): Promise<S.FailureGroup[]> {
    this.#workflow(name);
    const failed = await this.store.listTasks({ status: ["failed", "dead_letter"] });
    const ofWorkflow = new Map<string, boolean>();
    const groups = new Map<string, { count: number; last: TaskRecord }>();
    for (const task of failed) {
      let mine = ofWorkflow.get(task.run_id);
      if (mine === undefined) {
        mine = (await this.store.getRun(task.run_id))?.workflow === name;
        ofWorkflow.set(task.run_id, mine);
      }
      if (!mine) continue;
      const message = task.error ?? "(no message)";
      const group = groups.get(message);
      if (!group) groups.set(message, { count: 1, last: task });
      else {
        group.count += 1;
        if ((task.finished ?? 0) >= (group.last.finished ?? 0)) group.last = task;
      }
    }
    return [...groups.entries()]
      .map(([message, { count, last }]) => ({
        message,
        count,
        last_task_id: last.id,
        last_run_id: last.run_id,
        last_at: isoTime(last.finished ?? last.created),
      }))
      .sort((a, b) => b.count - a.count || b.last_at.localeCompare(a.last_at));
  }

  #workflow(name: string): S.WorkflowOut {
    const wf = this.engine.registry.workflows.get(name);
    if (!wf) throw new ServiceError("unknown_workflow", `Workflow ${name} is not registered.`);
    return workflowView(wf, this.engine.registry.pools.get(wf.pool)!);
  }

  async submitRun(
    workflow: string,
    body: { title: string; description?: string; input?: unknown },
    operator?: Operator,
  ): Promise<S.Created> {
    const wf = this.engine.registry.workflows.get(workflow);
    const input = checkRunInput(wf, body.input) as Json | undefined;
    const submit = { title: body.title, description: body.description, input };
    return { run_id: await commanded(this.commands.submitRun(workflow, submit, operator)) };
  }

  async submitRuns(
    workflow: string,
    bodies: ReadonlyArray<{ title: string; description?: string; input?: unknown }>,
    operator?: Operator,
  ): Promise<S.Created[]> {
    const wf = this.engine.registry.workflows.get(workflow);
    if (!wf) throw new ServiceError("unknown_workflow", `Workflow ${workflow} is not registered.`);
    // Every item is checked before anything is written; the refusal lists every misfit, each
    // under its item's index (`["body", 3, "input", ...]`).
    const issues: ValidationIssue[] = [];
    const submits = bodies.map((body, index) => {
      try {
        const input = checkRunInput(wf, body.input) as Json | undefined;
        return { title: body.title, description: body.description, input };
      } catch (err) {
        if (!(err instanceof ServiceError) || err.code !== "validation") throw err;
        for (const issue of err.extras.errors as ValidationIssue[]) {
          issues.push({ ...issue, loc: [issue.loc[0], index, ...issue.loc.slice(1)] });
        }
        return null;
      }
    });
    if (issues.length) {
      throw validation(
        "Some runs' input does not match the workflow's input schema; none was queued.",
        issues,
      );
    }
    const ids = await commanded(
      this.commands.submitRuns(workflow, submits as SubmitInput[], operator),
    );
    return ids.map((run_id) => ({ run_id }));
  }

  async submitRunOnce(
    workflow: string,
    body: { title: string; description?: string; input?: unknown },
    idempotencyKey: string,
    operator?: Operator,
  ): Promise<{ created: S.Created; replayed: boolean }> {
    const wf = this.engine.registry.workflows.get(workflow);
    const input = checkRunInput(wf, body.input) as Json | undefined;
    const submit = { title: body.title, description: body.description, input };
    // A null input is no input, so it hashes as a body without one.
    const { input: _given, ...rest } = body;
    const hashed = body.input == null ? rest : body;
    const idem = { key: idempotencyKey, bodyHash: bodyHash(hashed) };
    const done = await commanded(this.commands.submitRunOnce(workflow, submit, idem, operator));
    return { created: { run_id: done.runId }, replayed: done.replayed };
  }

  async listRuns(query: RunListQuery): Promise<S.RunSummary[]> {
    return (await this.listRunsPage(query)).runs;
  }

  // Keyset paging. In dispatch order the cursor names the last run of the page and its position;
  // the next page starts after that run's position now (a run deleted or moved in front of it
  // shifts the positions), or, if the run itself was deleted, at the position it had (the runs
  // behind it moved up by one). New runs go to the end, so they never shift a page. A time sort
  // (newest first) pages by (time, id) of the last run: a run changed since the page was read
  // moves to the front (`updated`), so it is never answered twice.
  async listRunsPage(query: RunListQuery): Promise<RunPage> {
    const sort = query.sort ?? "position";
    const filter = runFilter(query);
    if (query.cursor !== undefined) {
      const at = decodeRunCursor(query.cursor, sort);
      if ("position" in at) filter.after = await this.#cursorPosition(at);
      else filter.afterKey = at;
    }
    const list = await this.store.listRuns(filter);
    let next_cursor: string | null = null;
    if (query.limit !== undefined && list.length > query.limit) {
      list.length = query.limit;
      next_cursor = encodeRunCursor(list[list.length - 1]!, sort);
    }
    // Grouped once by run: filtering per run would cost runs x live attempts.
    const going = byRun(await this.store.listTasks({ status: ["in_progress", "waiting"] }));
    const pending = byRun(await this.store.listRequests({ pending: true }));
    const registered = this.engine.registry.workflows;
    const runs: S.RunSummary[] = [];
    for (const run of list) {
      const facts = {
        going: going.get(run.id) ?? NONE,
        pending: pending.get(run.id) ?? NONE,
        registered: registered.has(run.workflow),
        waitingOnPeople: false,
      };
      const ready = readyOf(this.store, run.id);
      facts.waitingOnPeople = await isWaitingOnPeople(run, facts.going, facts.pending, ready);
      runs.push(runSummary(run, facts));
    }
    return { runs, next_cursor };
  }

  async #cursorPosition(at: { position: number; id: string }): Promise<number> {
    const run = await this.store.getRun(at.id);
    return run === null ? at.position - 1 : run.position;
  }

  async countRuns(): Promise<S.RunCounts> {
    const by_status: Record<string, number> = Object.fromEntries(RUN_STATUSES.map((s) => [s, 0]));
    const by_workflow: Record<string, Record<string, number>> = {};
    let total = 0;
    for (const { status, workflow, count } of await this.store.countRunsByStatus()) {
      total += count;
      by_status[status] = (by_status[status] ?? 0) + count;
      by_workflow[workflow] = { ...by_workflow[workflow], [status]: count };
    }
    const waiting_on_people = await countWaitingOnPeople(this.store);
    return { total, by_status, by_workflow, waiting_on_people };
  }

  async getRun(runId: string): Promise<S.RunDetail> {
    const run = await requireRun(this.store, runId);
    const all = await this.store.listTasks({ run_id: runId });
    const going = all.filter((t) => t.status === "in_progress" || t.status === "waiting");
    const pending = await this.store.listRequests({ run_id: runId, pending: true });
    const hasReady = async () => all.some((t) => t.status === "ready");
    const facts: RunFacts = {
      going,
      pending,
      registered: this.engine.registry.workflows.has(run.workflow),
      waitingOnPeople: await isWaitingOnPeople(run, going, pending, hasReady),
    };
    return runDetail(run, all, facts);
  }

  async editRun(runId: string, body: S.EditRun, operator?: Operator): Promise<S.RunDetail> {
    await commanded(this.commands.editRun(runId, body, operator));
    return this.getRun(runId);
  }

  async deleteRun(runId: string, operator?: Operator): Promise<void> {
    await commanded(this.commands.deleteRun(runId, operator));
  }

  async bulkRuns(body: S.BulkRuns, operator?: Operator): Promise<S.BulkOut> {
    const limit = body.limit ?? MAX_BULK_RUNS;
    const target: BulkTarget = { limit };
    if (body.run_ids) target.runIds = body.run_ids;
    else {
      const f = body.filter ?? {};
      target.filter = {
        status: f.status,
        workflow: f.workflow,
        createdBefore: f.before === undefined ? undefined : Date.parse(f.before),
        after: body.cursor === undefined ? undefined : decodeBulkCursor(body.cursor),
      };
    }
    const r = await commanded(this.commands.bulkRuns(body.action, target, operator));
    return {
      action: body.action,
      done: r.done.length,
      done_run_ids: r.done,
      refused: r.refused,
      more: r.more,
      next_cursor:
        r.next && Buffer.from(JSON.stringify([r.next.created, r.next.id])).toString("base64url"),
    };
  }

  async cancelRun(runId: string, operator?: Operator): Promise<S.Ok> {
    const stopped = await commanded(this.commands.cancelRun(runId, operator));
    if (!stopped) return { ok: true };
    return { ok: true, note: `Stopped ${stopped} attempt${stopped === 1 ? "" : "s"}.` };
  }

  async pauseRun(runId: string, operator?: Operator): Promise<S.Ok> {
    await commanded(this.commands.pauseRun(runId, operator));
    return { ok: true };
  }

  async resumeRun(runId: string, operator?: Operator): Promise<S.Ok> {
    await commanded(this.commands.resumeRun(runId, operator));
    return { ok: true };
  }

  async positionRun(runId: string, body: S.Position, operator?: Operator): Promise<S.PositionOut> {
    return { position: await commanded(this.commands.positionRun(runId, body, operator)) };
  }

  async rerun(runId: string, body: S.Rerun, operator?: Operator): Promise<S.TaskRef> {
    return { task_id: await commanded(this.commands.rerunNode(runId, body.node, operator)) };
  }

  async runEvents(runId: string, query: PageQuery): Promise<S.EventEnvelope[]> {
    await requireRun(this.store, runId);
    const events = await this.store.listEvents({
      run_id: runId,
      after: query.after ?? 0,
      limit: pageLimit(query.limit),
    });
    return events.map(eventView);
  }

  async runGraph(runId: string): Promise<S.GraphOut> {
    const run = await requireRun(this.store, runId);
    const wf = this.engine.registry.workflows.get(run.workflow);
    if (!wf)
      throw new ServiceError("unknown_workflow", `Workflow ${run.workflow} is not registered.`);
    const all = await this.store.listTasks({ run_id: runId });
    const joined = await this.#joinArrivals(runId, wf.graph.edges);
    return runGraph(wf.graph, all, await this.store.listArrivals(runId), joined);
  }

  /** The run's `join.arrived` events; only read when the graph has a join edge to count. */
  async #joinArrivals(runId: string, edges: { kind: string }[]): Promise<JoinArrival[]> {
    if (!edges.some((e) => e.kind === "join")) return [];
    const events = await this.store.listEvents({ run_id: runId, after: 0 });
    return events
      .filter((e) => e.name === "join.arrived" && e.task_id !== null)
      .map((e) => ({ task_id: e.task_id as number, join: String(e.data.join) }));
  }

  async explainRun(runId: string): Promise<S.RunExplain> {
    const run = await requireRun(this.store, runId);
    return new Explainer(this.engine).run(run);
  }

  async runLog(runId: string): Promise<S.LogEntry[]> {
    await requireRun(this.store, runId);
    return (await this.store.listLog(runId)).map(logView);
  }

  async appendRunLog(runId: string, body: S.LogText, operator?: Operator): Promise<S.LogRef> {
    return { log_id: await commanded(this.commands.appendRunLog(runId, body.text, operator)) };
  }

  async runRequests(runId: string): Promise<S.RequestView[]> {
    await requireRun(this.store, runId);
    const now = Date.now();
    return (await this.store.listRequests({ run_id: runId })).map((r) => requestView(r, now));
  }

  async getTask(taskId: number): Promise<S.TaskDetail> {
    const task = await requireTask(this.store, taskId);
    const subs = await this.store.listSubmissions(taskId);
    return { ...taskView(task), submissions: subs.map(submissionView) };
  }

  async moveTask(taskId: number, body: S.Move, operator?: Operator): Promise<S.TaskRef> {
    return { task_id: await commanded(this.commands.moveTask(taskId, body.node, operator)) };
  }

  async retryTask(taskId: number, operator?: Operator): Promise<S.TaskRef> {
    return { task_id: await commanded(this.commands.retryTask(taskId, operator)) };
  }

  async setTaskStatus(taskId: number, body: S.SetStatus, operator?: Operator): Promise<S.Ok> {
    await commanded(this.commands.setTaskStatus(taskId, body.status, operator));
    return { ok: true };
  }

  async taskStream(taskId: number, query: PageQuery): Promise<S.StreamOut> {
    const task = await requireTask(this.store, taskId);
    const chunks = await this.store.listChunks(taskId, query.after ?? 0, pageLimit(query.limit));
    return {
      chunks: chunks.map(chunkView),
      last_seq: await this.store.lastChunkSeq(taskId),
      live: task.status === "in_progress" || task.status === "waiting",
    };
  }

  async explainTask(taskId: number): Promise<S.TaskExplain> {
    const task = await requireTask(this.store, taskId);
    return new Explainer(this.engine).task(task);
  }

  async taskRejections(taskId: number): Promise<S.RejectedSubmission[]> {
    const task = await requireTask(this.store, taskId);
    const events = await this.store.listEvents({ run_id: task.run_id, after: 0 });
    return events
      .filter((e) => e.name === "submission.rejected" && e.task_id === taskId && e.id !== null)
      .map((e) => ({
        event_id: e.id as number,
        created: isoTime(e.created),
        errors: (e.data.errors ?? []) as S.ValidationError[],
      }));
  }

  async taskError(taskId: number): Promise<S.TaskError> {
    const task = await requireTask(this.store, taskId);
    return { task_id: task.id, error: task.error, stack: task.error_stack };
  }

  async listRequests(query: RequestListQuery): Promise<S.RequestView[]> {
    const now = Date.now();
    const list = await this.store.listRequests({ run_id: query.run, pending: query.pending });
    return list.map((r) => requestView(r, now));
  }

  async getRequest(requestId: number): Promise<S.RequestView> {
    const req = await this.store.getRequest(requestId);
    if (!req) throw notFound("Request", requestId);
    return requestView(req);
  }

  async answerRequest(
    requestId: number,
    body: S.Answer,
    operator?: Operator,
  ): Promise<S.RequestView> {
    const answer = this.commands.answerRequest(requestId, body, "user", operator);
    return requestView(await commanded(answer));
  }
}

const NONE: never[] = [];

function byRun<T extends { run_id: string }>(rows: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(row.run_id);
    if (list) list.push(row);
    else out.set(row.run_id, [row]);
  }
  return out;
}
