// Operator-side helpers over one `yardmaster serve` process (serve.ts), driven over HTTP only:
// submit, read, wait, and a live event tap.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, expect } from "vitest";
import { checkEnvelope } from "./api-shapes.ts";
import { type Served, serve, serverDir, stop } from "./serve.ts";
import { type Envelope, openStream, type SseClient } from "./sse.ts";
import { writeFlows } from "./suite-flows.ts";
import { testStoreUrl } from "./test-store.ts";
import { eventually } from "./wait.ts";

export interface Suite {
  server: Served;
  tap: SseClient;
  submit(workflow: string, title: string, description?: string): Promise<string>;
  run(id: string): Promise<any>;
  task(id: number): Promise<any>;
  untilRun(id: string, test: (run: any) => boolean, what: string): Promise<any>;
  untilTask(runId: string, test: (task: any) => boolean, what: string): Promise<any>;
  eventsOf(runId: string): Envelope[];
  stored(runId: string): Promise<Envelope[]>;
  stop(): Promise<void>;
}

export async function startSuite(server = ""): Promise<Suite> {
  const dir = serverDir("bb-");
  const srv = await serve({ dir, toml: writeFlows(dir, server), store: testStoreUrl(dir, "s.db") });
  const tap = await openStream(`${srv.url}/api/events`);
  const run = async (id: string) => (await srv.call("GET", `/api/runs/${id}`)).body;
  const suite: Suite = {
    server: srv,
    tap,
    async submit(workflow, title, description) {
      const body = description === undefined ? { title } : { title, description };
      const reply = await srv.call("POST", `/api/workflows/${workflow}/runs`, body);
      expect(reply.status, reply.text).toBe(201);
      expect(Object.keys(reply.body)).toEqual(["run_id"]);
      return reply.body.run_id;
    },
    run,
    task: async (id) => (await srv.call("GET", `/api/tasks/${id}`)).body,
    untilRun: (id, test, what) =>
      eventually(async () => {
        const r = await run(id);
        return test(r) ? r : undefined;
      }, what),
    untilTask: (runId, test, what) =>
      eventually(async () => ((await run(runId)).tasks ?? []).find(test), what),
    eventsOf: (runId) => tap.events().filter((e) => e.run_id === runId),
    async stored(runId) {
      const reply = await srv.call("GET", `/api/runs/${runId}/events`);
      expect(reply.status).toBe(200);
      for (const e of reply.body) checkEnvelope(e, true);
      return reply.body;
    },
    async stop() {
      tap.close();
      await stop(srv);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return suite;
}

export const ended = (run: any) => ["completed", "failed", "cancelled"].includes(run?.status);

/** Every run of the list is numbered 1..n in list order. */
export async function checkPositions(srv: Served): Promise<any[]> {
  const list = (await srv.call("GET", "/api/runs")).body as any[];
  expect(list.map((r) => r.position)).toEqual(list.map((_, i) => i + 1));
  return list;
}

/** One suite per test file: started before its tests, stopped after them. */
export function suiteForFile(server = ""): Suite {
  let started: Suite | undefined;
  beforeAll(async () => {
    started = await startSuite(server);
  }, 30_000);
  afterAll(async () => {
    await started?.stop();
  }, 30_000);
  // The tests read the suite lazily, once beforeAll has filled it in.
  return new Proxy({} as Suite, { get: (_, key) => (started as any)[key] });
}
