// Fixtures for the HTTP adapter tests: an OperatorService that answers fixed, valid views (or
// throws ServiceError for unknown ids), an EventFeed over an array, and a helper that starts
// the app on 127.0.0.1:0. The real engine is exercised by the end-to-end tests.
import type { FastifyInstance } from "fastify";
import { EventBus, type EventRecord } from "../../src/engine/index.ts";
import { type AppDeps, buildApp } from "../../src/http/app.ts";
import type { AuthGate } from "../../src/http/auth.ts";
import type { EventFeed } from "../../src/http/sse/event-feed.ts";
import type { OperatorService } from "../../src/service/api.ts";
import { conflict, notFound } from "../../src/service/errors.ts";
import type * as S from "../../src/service/schemas/index.ts";

export const RUN_ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";
const NOW = "2024-05-01T12:00:00.000Z";

export const summary: S.RunSummary = {
  id: RUN_ID,
  workflow: "triage",
  title: "first",
  status: "running",
  position: 1,
  created: NOW,
  updated: NOW,
  current_nodes: ["intake"],
  pending_requests: 0,
};

export const task: S.TaskDetail = {
  id: 7,
  run_id: RUN_ID,
  node: "intake",
  attempt: 1,
  status: "in_progress",
  priority: 0,
  explicit: false,
  created: NOW,
  started: NOW,
  terminal: false,
  payload: { title: "first" },
  submissions: [],
};

export const request: S.RequestView = {
  id: 3,
  run_id: RUN_ID,
  task_id: 7,
  node: "intake",
  kind: "question",
  mode: "text",
  source: "node",
  prompt: "Why?",
  pending: true,
  stale: false,
  created: NOW,
  age: 1.5,
};

export const workflowOut: S.WorkflowOut = {
  name: "triage",
  start: "intake",
  nodes: { intake: { edges: [], generation: 0, label: "intake" } },
  pool: "default",
  capacity: 4,
  in_flight: 1,
  target: null,
  plugin: { actions: [], panels: [] },
};

/** Every call the service received, with its (validated) arguments. */
export type Call = [string, ...unknown[]];

function needRun(runId: string): void {
  if (runId !== RUN_ID) throw notFound("Run", runId);
}
function needTask(taskId: number): void {
  if (taskId !== task.id) throw notFound("Task", taskId);
}
function needRequest(id: number): void {
  if (id !== request.id) throw notFound("Request", id);
}

export function fixtureService(calls: Call[] = []): OperatorService {
  const seen = <T>(name: string, value: T, ...args: unknown[]): T => {
    calls.push([name, ...args]);
    return value;
  };
  const ofRun = <T>(id: string, answer: () => T): T => {
    needRun(id);
    return answer();
  };
  const ofTask = <T>(id: number, answer: () => T): T => {
    needTask(id);
    return answer();
  };
  const ofRequest = <T>(id: number, answer: () => T): T => {
    needRequest(id);
    return answer();
  };
  return {
    startedAt: new Date(NOW),
    health: async () => ({
      ok: true,
      version: "0.1.0",
      pools: { default: { capacity: 4, in_flight: 1 } },
    }),
    ready: async () => ({ ok: true, schema: 1 }),
    listWorkflows: async () => [workflowOut],
    listSchedules: async () => [],
    getSchedule: async (name) => {
      throw notFound("schedule", name);
    },
    createSchedule: async () => {
      throw notFound("Workflow", "x");
    },
    updateSchedule: async (name) => {
      throw notFound("schedule", name);
    },
    deleteSchedule: async (name) => {
      throw notFound("schedule", name);
    },
    getWorkflow: async (name) => {
      if (name !== "triage") throw notFound("Workflow", name);
      return workflowOut;
    },
    workflowFailures: async (name) => {
      if (name !== "triage") throw notFound("Workflow", name);
      return [];
    },
    submitRun: async (wf, body) => seen("submitRun", { run_id: RUN_ID }, wf, body),
    submitRuns: async (wf, bodies) =>
      seen(
        "submitRuns",
        bodies.map(() => ({ run_id: RUN_ID })),
        wf,
        bodies,
      ),
    submitRunOnce: async (wf, body, key) =>
      seen("submitRunOnce", { created: { run_id: RUN_ID }, replayed: false }, wf, body, key),
    listRuns: async (query) => seen("listRuns", [summary], query),
    listRunsPage: async (query) => ({
      runs: seen("listRuns", [summary], query),
      next_cursor: query.limit === undefined ? null : "next",
    }),
    countRuns: async () => ({
      total: 1,
      by_status: { running: 1 },
      by_workflow: { triage: { running: 1 } },
    }),
    getRun: async (id) => ofRun(id, () => ({ ...summary, description: "", tasks: [task] })),
    editRun: async (id, body) => ofRun(id, () => seen("editRun", { ...summary }, body)),
    deleteRun: async (id) => ofRun(id, () => undefined),
    cancelRun: async (id) => ofRun(id, () => ({ ok: true })),
    bulkRuns: async (body) => ({
      action: body.action,
      done: 0,
      done_run_ids: [],
      refused: [],
      more: false,
      next_cursor: null,
    }),
    pauseRun: async (id) =>
      ofRun(id, () => {
        throw conflict("The run is completed; only a queued or running run can be paused.");
      }),
    resumeRun: async (id) => ofRun(id, () => ({ ok: true, note: "nothing to do" })),
    positionRun: async (id, body) => ofRun(id, () => seen("positionRun", { position: 1 }, body)),
    rerun: async (id, body) => ofRun(id, () => seen("rerun", { task_id: 8 }, body)),
    runEvents: async (id, query) => ofRun(id, () => seen("runEvents", [], query)),
    runGraph: async (id) => ofRun(id, () => ({ nodes: [], edges: [] })),
    explainRun: async (id) =>
      ofRun(id, () => ({ run_id: id, status: "running" as const, reasons: [], tasks: [] })),
    runLog: async (id) => ofRun(id, () => []),
    appendRunLog: async (id, body) => ofRun(id, () => seen("appendRunLog", { log_id: 1 }, body)),
    runRequests: async (id) => ofRun(id, () => [request]),
    // A view carrying an internal field: the response schema must strip it.
    getTask: async (id) => ofTask(id, () => ({ ...task, token: "task-secret" }) as S.TaskDetail),
    moveTask: async (id, body) => ofTask(id, () => seen("moveTask", { task_id: 9 }, body)),
    retryTask: async (id) => ofTask(id, () => ({ task_id: 10 })),
    setTaskStatus: async (id, body) => ofTask(id, () => seen("setTaskStatus", { ok: true }, body)),
    taskStream: async (id, query) =>
      ofTask(id, () => seen("taskStream", { chunks: [], last_seq: 0, live: true }, query)),
    explainTask: async (id) =>
      ofTask(id, () => ({
        task_id: id,
        run_id: "r1",
        node: "start",
        status: "ready" as const,
        reasons: [{ code: "next" as const, message: "next", pool: "default" }],
      })),
    taskRejections: async (id) => ofTask(id, () => []),
    taskError: async (id) => ofTask(id, () => ({ task_id: id, error: null, stack: null })),
    listRequests: async (query) => seen("listRequests", [request], query),
    getRequest: async (id) => ofRequest(id, () => request),
    answerRequest: async (id, body) => ofRequest(id, () => seen("answerRequest", request, body)),
  };
}

/** A store of events in an array; `onReplay` lets a test publish while a replay is running. */
export class ArrayFeed implements EventFeed {
  readonly bus = new EventBus();
  readonly stored: EventRecord[] = [];
  onReplay: (() => void) | undefined;

  /** Stores (when it has an id) and publishes, as the engine does after commit. */
  emit(name: string, extra: Partial<EventRecord> = {}): EventRecord {
    const ephemeral = name === "task.stream";
    const id = ephemeral ? null : this.stored.length + 1;
    const event: EventRecord = {
      id,
      name,
      created: Date.now(),
      run_id: RUN_ID,
      task_id: null,
      data: {},
      ...extra,
    };
    if (!ephemeral) this.stored.push(event);
    this.bus.publish([event]);
    return event;
  }

  async replay(after: number, limit: number, runId?: string): Promise<EventRecord[]> {
    this.onReplay?.();
    return this.stored
      .filter((e) => (e.id ?? 0) > after && (runId === undefined || e.run_id === runId))
      .slice(0, limit);
  }

  async lastEventId(): Promise<number> {
    return this.stored.length;
  }
}

export const openGate: AuthGate = { mode: "off", check: () => true };

export interface Started {
  app: FastifyInstance;
  base: string;
  feed: ArrayFeed;
  calls: Call[];
}

export async function startApp(overrides: Partial<AppDeps> = {}): Promise<Started> {
  const calls: Call[] = [];
  const feed = (overrides.events as ArrayFeed | undefined) ?? new ArrayFeed();
  const app = await buildApp({
    service: fixtureService(calls),
    events: feed,
    auth: openGate,
    bodyLimit: 1024,
    sseReplayCap: 100,
    version: "0.1.0",
    ...overrides,
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { app, base: `http://127.0.0.1:${port}`, feed, calls };
}
