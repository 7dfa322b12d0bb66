// Small steps the tests over a server in their own process (server-harness.ts) take: submit a
// run, read its stored events, wait for one.
import { expect } from "vitest";
import type { TestServer } from "./server-harness.ts";
import { eventually } from "./wait.ts";

export interface EventOut {
  id: number | null;
  name: string;
  data: any;
}

/** Submits a run of `workflow` and answers its id. */
export async function submitTo(s: TestServer, workflow: string, title: string): Promise<string> {
  const r = await s.call("POST", `/api/workflows/${workflow}/runs`, { title });
  expect(r.status).toBe(201);
  return r.body.run_id;
}

/** The run's stored events, one page large enough for any run of these tests. */
export async function runEvents(s: TestServer, runId: string): Promise<EventOut[]> {
  return (await s.call("GET", `/api/runs/${runId}/events?limit=1000`)).body;
}

/** Waits until the run has stored an event that `match`es, and answers it. */
export function untilEvent(s: TestServer, runId: string, match: (e: EventOut) => boolean) {
  return eventually(
    async () => (await runEvents(s, runId)).find(match),
    `an event of run ${runId}`,
  );
}
