// The bench's workflows (bench/workflows.ts) as the floor runs them: their bodies, and for each
// finished attempt the rows and events Yardmaster stores for it, in the same numbers.
//   chain3 (W1): a -> b -> c, each adding one: per run 1 run row, 3 task rows, 12 events.
//   fan (W3): spread -> `title` (20) branches -> the join gather, which sums the arrivals: per
//   run 1 run row, width + 2 task rows, width arrival rows, 4 * width + 9 events (run.created,
//   run.started, run.completed; task.enqueued, task.started, task.done per task; join.arrived
//   per branch).
//   nap (W4): one node sleeping `title` ms (50): per run 1 run row, 1 task row, 6 events.
//   napfan (W4-fan): scatter -> `count` sleeping dozes (title `400x50`), each terminal, the run
//   completed by the last: per run 1 run row, count + 1 task rows, 3 * count + 6 events (no
//   join, so no arrival rows; run.completed carries the dozes' outputs and ids).
import type { Attempt, FloorEngine, FloorWorkflow, Lineage } from "./floor-engine.ts";

const CHAIN = ["a", "b", "c"];

export const chain3: FloorWorkflow = {
  name: "chain3",
  start: () => ({ node: "a", payload: 0 }),
  body: async (attempt) => (attempt.payload as number) + 1,
  done(engine, attempt, output, now) {
    const next = CHAIN[CHAIN.indexOf(attempt.node) + 1];
    engine.finish(attempt, output, next ? [next] : [], now);
    if (!next) return engine.complete(attempt, output, now);
    const lineage: Lineage = {
      reason: "transition",
      branch: [],
      from_task: attempt.id,
      arrivals: null,
    };
    engine.enqueue(chain3, attempt.runId, next, output, lineage, now);
  },
};

interface Join {
  /** The spread task's id. */
  fanout: number;
  count: number;
  /** Arrived branches' task ids and values, by branch index. */
  tasks: number[];
  values: number[];
  arrived: number;
}

/** Joins waiting for branches, by run id (their arrivals are stored rows; this only counts). */
const joins = new Map<string, Join>();

/** A fan-out: the attempt's outcome with one transition per item, and a branch task for each. */
function fanOut(
  engine: FloorEngine,
  attempt: Attempt,
  output: readonly unknown[],
  to: { workflow: FloorWorkflow; node: string },
  now: number,
): void {
  const count = output.length;
  const transitions = output.map(() => to.node);
  engine.finish(attempt, output, transitions, now);
  for (const [index, payload] of output.entries()) {
    const branch = [{ count, fanout: attempt.id, index }];
    const lineage = {
      reason: "transition",
      branch,
      from_task: attempt.id,
      arrivals: null,
    } as const;
    engine.enqueue(to.workflow, attempt.runId, to.node, payload, lineage, now);
  }
}

function spread(engine: FloorEngine, attempt: Attempt, output: number[], now: number): void {
  const count = output.length;
  joins.set(attempt.runId, { fanout: attempt.id, count, tasks: [], values: [], arrived: 0 });
  fanOut(engine, attempt, output, { workflow: fan, node: "branch" }, now);
}

function arrive(engine: FloorEngine, attempt: Attempt, output: number, now: number): void {
  engine.finish(attempt, output, ["gather"], now);
  const { runId, id } = attempt;
  const join = joins.get(runId)!;
  const index = attempt.payload as number;
  const { fanout } = join;
  engine.store.insertArrival(runId, fanout, index, id, output);
  join.tasks[index] = id;
  join.values[index] = output;
  join.arrived += 1;
  engine.emit("join.arrived", runId, id, {
    ...{ join: "gather", fanout_task: fanout, index, count: join.count },
    ...{ arrived: join.arrived, late: false },
  });
  if (join.arrived < join.count) return;
  joins.delete(runId);
  const payload = join.values.map((value, i) => ({
    index: i,
    key: i,
    value,
    task_id: join.tasks[i],
  }));
  const lineage: Lineage = { reason: "join", branch: [], from_task: fanout, arrivals: join.tasks };
  const task = engine.enqueue(fan, runId, "gather", payload, lineage, now);
  engine.store.bindArrivals(runId, fanout, task);
}

export const fan: FloorWorkflow = {
  name: "fan",
  start: (title) => ({ node: "spread", payload: Number(title) || 20 }),
  async body(attempt) {
    if (attempt.node === "spread")
      return Array.from({ length: attempt.payload as number }, (_, i) => i);
    if (attempt.node === "branch") return (attempt.payload as number) + 1;
    return (attempt.payload as Array<{ value: number }>).reduce((sum, a) => sum + a.value, 0);
  },
  done(engine, attempt, output, now) {
    if (attempt.node === "spread") return spread(engine, attempt, output as number[], now);
    if (attempt.node === "branch") return arrive(engine, attempt, output as number, now);
    engine.finish(attempt, output, [], now);
    engine.complete(attempt, output, now);
  },
};

const sleep = (ms: number) => new Promise<number>((resolve) => setTimeout(() => resolve(ms), ms));

// A run's start payload as Yardmaster stores it (the submit's title and description).
const titled = (title: string) => ({ title, description: "" });

export const nap: FloorWorkflow = {
  name: "nap",
  start: (title) => ({ node: "sleep", payload: titled(title) }),
  body: (attempt) => sleep(Number((attempt.payload as { title: string }).title) || 50),
  done(engine, attempt, output, now) {
    engine.finish(attempt, output, [], now);
    engine.complete(attempt, output, now);
  },
};

/** Fanned-out runs' dozes still sleeping, by run id: their outputs and task ids. */
const dozing = new Map<string, { outputs: unknown[]; tasks: number[]; left: number }>();

function scatter(engine: FloorEngine, attempt: Attempt, output: number[], now: number): void {
  dozing.set(attempt.runId, { outputs: [], tasks: [], left: output.length });
  fanOut(engine, attempt, output, { workflow: napfan, node: "doze" }, now);
}

export const napfan: FloorWorkflow = {
  name: "napfan",
  start: (title) => ({ node: "scatter", payload: titled(title) }),
  async body(attempt) {
    if (attempt.node === "doze") return sleep(attempt.payload as number);
    const [count, ms] = (attempt.payload as { title: string }).title.split("x").map(Number);
    return Array.from({ length: count || 400 }, () => ms || 50);
  },
  done(engine, attempt, output, now) {
    if (attempt.node === "scatter") return scatter(engine, attempt, output as number[], now);
    engine.finish(attempt, output, [], now);
    const run = dozing.get(attempt.runId)!;
    run.outputs.push(output);
    run.tasks.push(attempt.id);
    if (--run.left > 0) return;
    dozing.delete(attempt.runId);
    engine.complete(attempt, run.outputs, now, run.tasks);
  },
};

export const FLOOR_WORKFLOWS = [chain3, fan, nap, napfan];
