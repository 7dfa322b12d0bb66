// What the peers' driver (bench/peers/drivers.ts) and their worker process
// (bench/peers/worker.ts) agree on: the workflows as steps, and the worker's configuration.

export type Peer = "dbos" | "graphile" | "pgboss" | "bullmq";
export const PEERS: readonly Peer[] = ["dbos", "graphile", "pgboss", "bullmq"];

/** The workflows of bench/workflows.ts, by the same names. */
export type Workflow = "chain3" | "fan" | "nap";
export type Step = "a" | "b" | "c" | "spread" | "branch" | "gather" | "nap";

export interface WorkerSpec {
  peer: Peer;
  /** PostgreSQL URL of the peer's fresh database (PostgreSQL peers). */
  url?: string;
  /** Port of the peer's Redis on 127.0.0.1 (BullMQ). */
  redisPort?: number;
  /** Steps (jobs, or DBOS workflows) running at once in the worker. */
  capacity: number;
  /** Branches of a fan-out. */
  width: number;
  /** What a nap step sleeps. */
  sleepMs: number;
  /** DBOS: the queue's shortest polling interval. */
  dbosPollMs: number;
  /**
   * Write a CPU profile (bench/cpu-profiler.ts) of the worker from `ready` until it stops to
   * this file (PEERS_PROFILE).
   */
  profileFile?: string;
}

/** The step a run of `workflow` starts with (the job the producer enqueues). */
export function firstStep(workflow: Workflow): Step {
  return ({ chain3: "a", fan: "spread", nap: "nap" } as const)[workflow];
}

/**
 * The steps a finished step hands over to, for the chain; a fan-out's spread and branches
 * hand over through each peer's join, and an empty answer for `c`, `gather` and `nap` means the
 * run ends with this step.
 */
export function nextSteps(step: Step): Step[] {
  if (step === "a") return ["b"];
  if (step === "b") return ["c"];
  return [];
}
