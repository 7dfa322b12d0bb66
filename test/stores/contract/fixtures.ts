// Record builders and small helpers shared by the store contract parts.
import type {
  NewTask,
  RequestRecord,
  RunRecord,
  Store,
  TaskRecord,
} from "../../../src/engine/index.ts";

export interface ContractOptions {
  /**
   * Whether reads outside `transact` are isolated from an open transaction (default true).
   * Only a store that cannot provide it (SQLite `:memory:`, one connection) turns it off.
   */
  isolatedReads?: boolean;
}

/** What every contract part gets: the store opened for the current test. */
export interface Harness {
  readonly store: Store;
  readonly options: ContractOptions;
}

export type NewRun = Omit<RunRecord, "position">;

let counter = 0;

export function runInput(overrides: Partial<NewRun> = {}): NewRun {
  counter += 1;
  return {
    id: `run-${counter}`,
    workflow: "triage",
    title: `Run ${counter}`,
    description: "",
    status: "queued",
    created: 1_700_000_000_000 + counter,
    updated: 1_700_000_000_000 + counter,
    started: false,
    input: null,
    ...overrides,
  };
}

export function taskInput(runId: string, overrides: Partial<NewTask> = {}): NewTask {
  return {
    run_id: runId,
    node: "start",
    attempt: 1,
    priority: 0,
    explicit: false,
    created: 1_700_000_100_000,
    payload_present: true,
    payload: { ticket: 1 },
    branch: [],
    lineage: { reason: "start", parent: null },
    ...overrides,
  };
}

export function requestInput(
  runId: string,
  taskId: number,
  overrides: Partial<Omit<RequestRecord, "id">> = {},
): Omit<RequestRecord, "id"> {
  return {
    run_id: runId,
    task_id: taskId,
    node: "start",
    kind: "question",
    mode: "text",
    source: "node",
    ordinal: 1,
    prompt: "Proceed?",
    options: null,
    schema: null,
    tool_call: null,
    answered_by: null,
    answer: null,
    stale: false,
    created: 1_700_000_200_000,
    answered: null,
    operator: null,
    ...overrides,
  };
}

export function addRun(store: Store, overrides: Partial<NewRun> = {}): Promise<RunRecord> {
  return store.transact((tx) => tx.insertRun(runInput(overrides)));
}

export function addTask(
  store: Store,
  runId: string,
  overrides: Partial<NewTask> = {},
): Promise<TaskRecord> {
  return store.transact((tx) => tx.insertTask(taskInput(runId, overrides)));
}

/** Ids and positions of the dispatch list, in order. */
export async function dispatchList(store: Store): Promise<Array<[string, number]>> {
  return (await store.listRuns()).map((run) => [run.id, run.position]);
}

/** A promise plus the function that resolves it, to hold a transaction open. */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open = () => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

/** Lets already-queued callbacks and I/O callbacks run (no clock involved). */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}
