// Fixtures for the HTTP adapter tests: an OperatorService that answers fixed, valid views (or
// throws ServiceError for unknown ids), an EventFeed over an array, and helpers to start the app
// on 127.0.0.1:0 and read its event stream. The real engine is exercised by the end-to-end tests.
import http from "node:http";
import type { FastifyInstance } from "fastify";
import type { EventRecord } from "../src/engine/domain.ts";
import { EventBus } from "../src/engine/event-bus.ts";
import { type AppDeps, buildApp } from "../src/http/app.ts";
import type { AuthGate } from "../src/http/auth.ts";
import type { EventFeed } from "../src/http/sse/event-feed.ts";
import type { OperatorService } from "../src/service/api.ts";
import { conflict, notFound } from "../src/service/errors.ts";
import type * as S from "../src/service/schemas/index.ts";

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
  const log = (name: string, ...args: unknown[]) => calls.push([name, ...args]);
  return {
    startedAt: new Date(NOW),
    health: async () => ({
      ok: true,
      version: "0.1.0",
      pools: { default: { capacity: 4, in_flight: 1 } },
    }),
    listWorkflows: async () => [workflowOut],
    getWorkflow: async (name) => {
      if (name !== "triage") throw notFound("Workflow", name);
      return workflowOut;
    },
    submitRun: async (wf, body) => (log("submitRun", wf, body), { run_id: RUN_ID }),
    listRuns: async (query) => (log("listRuns", query), [summary]),
    getRun: async (id) => (needRun(id), { ...summary, description: "", tasks: [task] }),
    editRun: async (id, body) => (needRun(id), log("editRun", body), { ...summary }),
    deleteRun: async (id) => needRun(id),
    cancelRun: async (id) => (needRun(id), { ok: true }),
    pauseRun: async (id) => {
      needRun(id);
      throw conflict("The run is completed; only a queued or running run can be paused.");
    },
    resumeRun: async (id) => (needRun(id), { ok: true, note: "nothing to do" }),
    positionRun: async (id, body) => (needRun(id), log("positionRun", body), { position: 1 }),
    rerun: async (id, body) => (needRun(id), log("rerun", body), { task_id: 8 }),
    runEvents: async (id, query) => (needRun(id), log("runEvents", query), []),
    runGraph: async (id) => (needRun(id), { nodes: [], edges: [] }),
    runLog: async (id) => (needRun(id), []),
    appendRunLog: async (id, body) => (needRun(id), log("appendRunLog", body), { log_id: 1 }),
    runRequests: async (id) => (needRun(id), [request]),
    // A view carrying an internal field: the response schema must strip it.
    getTask: async (id) => (needTask(id), { ...task, token: "task-secret" } as S.TaskDetail),
    moveTask: async (id, body) => (needTask(id), log("moveTask", body), { task_id: 9 }),
    retryTask: async (id) => (needTask(id), { task_id: 10 }),
    setTaskStatus: async (id, body) => (needTask(id), log("setTaskStatus", body), { ok: true }),
    taskStream: async (id, query) => (
      needTask(id), log("taskStream", query), { chunks: [], last_seq: 0, live: true }
    ),
    listRequests: async (query) => (log("listRequests", query), [request]),
    getRequest: async (id) => (needRequest(id), request),
    answerRequest: async (id, body) => (needRequest(id), log("answerRequest", body), request),
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

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

export function parseFrames(text: string): SseFrame[] {
  return text
    .split("\n\n")
    .filter((block) => block !== "")
    .map((block) => {
      const frame: SseFrame = {};
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) frame.comment = line.slice(1).trim();
        const m = /^(id|event|data): ?(.*)$/.exec(line);
        if (m) frame[m[1] as "id" | "event" | "data"] = m[2];
      }
      return frame;
    });
}

/** An open event stream read with node:http, so a test can also stop reading (pause). */
export class SseClient {
  text = "";
  status = 0;
  readonly #res: Promise<http.IncomingMessage>;
  readonly #req: http.ClientRequest;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.#req = http.get(url, { headers });
    this.#res = new Promise((resolve, reject) => {
      this.#req.once("response", (res) => {
        this.status = res.statusCode ?? 0;
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          this.text += chunk;
        });
        resolve(res);
      });
      this.#req.once("error", reject);
    });
  }

  response(): Promise<http.IncomingMessage> {
    return this.#res;
  }

  frames(): SseFrame[] {
    return parseFrames(this.text).filter((f) => f.comment === undefined);
  }

  close(): void {
    this.#req.destroy();
  }
}
