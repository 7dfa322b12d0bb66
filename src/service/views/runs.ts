// RunSummary and RunDetail. `current_nodes` and `pending_requests` are recomputed on every read.
import {
  type RequestRecord,
  type RunRecord,
  runOutput,
  type TaskRecord,
  terminalTasks,
} from "../../engine/index.ts";
import type { RunDetail, RunOutput, RunStats, RunSummary } from "../schemas/index.ts";
import { iso, taskView } from "./records.ts";

export interface RunFacts {
  /** Tasks of the run that are in_progress or waiting. */
  going: TaskRecord[];
  /** Unanswered, non-stale requests of the run. */
  pending: RequestRecord[];
  registered: boolean;
  /** Every outstanding attempt waits on a person (run-find.ts, `isWaitingOnPeople`). */
  waitingOnPeople: boolean;
}

export function runSummary(run: RunRecord, facts: RunFacts): RunSummary {
  const summary: RunSummary = {
    id: run.id,
    workflow: run.workflow,
    title: run.title,
    status: run.status,
    position: run.position,
    created: iso(run.created),
    updated: iso(run.updated),
    current_nodes: facts.going.length === 0 ? [] : [...new Set(facts.going.map((t) => t.node))],
    pending_requests: facts.pending.length,
    waiting_on_people: facts.waitingOnPeople,
  };
  if (!facts.registered) summary.unregistered = true;
  return summary;
}

const STAT_FIELDS = [
  "cost",
  "duration_s",
  "input_tokens",
  "output_tokens",
  "tool_calls",
  "total_tokens",
] as const;

/** Sums agent measurements over the run's attempts; a field nobody measured stays absent. */
export function runStats(tasks: TaskRecord[]): RunStats | undefined {
  const sums: Record<string, number> = {};
  for (const t of tasks) {
    if (!t.stats) continue;
    for (const field of STAT_FIELDS) {
      const value = t.stats[field];
      if (typeof value === "number") sums[field] = (sums[field] ?? 0) + value;
    }
  }
  return Object.keys(sums).length ? (sums as RunStats) : undefined;
}

export function runDetail(run: RunRecord, tasks: TaskRecord[], facts: RunFacts): RunDetail {
  const terminals = terminalTasks(tasks);
  const ended = run.status === "completed" || run.status === "failed" || run.status === "cancelled";
  const outputs: RunOutput[] = terminals.map((t) => ({
    node: t.node,
    task_id: t.id,
    branch: t.branch,
    value: t.result,
  }));
  const detail: RunDetail = {
    ...runSummary(run, facts),
    description: run.description,
    output: ended ? runOutput(terminals) : null,
    outputs,
    tasks: tasks.map(taskView),
  };
  if (run.input !== null) detail.input = run.input;
  const stats = runStats(tasks);
  if (stats) detail.stats = stats;
  return detail;
}
