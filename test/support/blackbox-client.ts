// Operator-side helpers over one black-box server: submit, read, wait, and a live event tap.
import { afterAll, beforeAll, expect } from "vitest";
import { writeFlows } from "./blackbox-flows.ts";
import { type BlackboxServer, makeDir, startServer, waitFor } from "./blackbox-server.ts";
import { checkEnvelope } from "./blackbox-shapes.ts";
import { type Envelope, openStream, type Stream } from "./blackbox-sse.ts";

export interface Suite {
  server: BlackboxServer;
  tap: Stream;
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
  const dir = makeDir();
  const srv = await startServer(dir, writeFlows(dir, server));
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
      waitFor(what, async () => {
        const r = await run(id);
        return test(r) ? r : undefined;
      }),
    untilTask: (runId, test, what) =>
      waitFor(what, async () => ((await run(runId)).tasks ?? []).find(test)),
    eventsOf: (runId) => tap.events().filter((e) => e.run_id === runId),
    async stored(runId) {
      const reply = await srv.call("GET", `/api/runs/${runId}/events`);
      expect(reply.status).toBe(200);
      for (const e of reply.body) checkEnvelope(e, true);
      return reply.body;
    },
    async stop() {
      tap.close();
      await srv.stop();
    },
  };
  return suite;
}

export const ended = (run: any) => ["completed", "failed", "cancelled"].includes(run?.status);

/** Every run of the list is numbered 1..n in list order. */
export async function checkPositions(srv: BlackboxServer): Promise<any[]> {
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
