// An attempt's life split into phases from what the API already gives: the task's timestamps
// (created, started, finished, not_before) and the run's stored events (task.started, .waiting,
// .sleeping, .resumed, .done, .failed, .dead_lettered, .cancelled, .status_set, and the
// task.failed that scheduled a retry with `retry_at`). Working time and waiting time (on a
// person, sleeping, a retry's backoff) are counted apart; time queued for a slot is neither.
import type { EventEnvelope, TaskView } from "../api/types.ts";

export type PhaseKind = "queued" | "backoff" | "working" | "person" | "sleeping";

export interface Phase {
  kind: PhaseKind;
  from: number;
  to: number;
  /** Still going (the attempt has not moved on): `to` is now. */
  open?: boolean;
}

export interface Totals {
  working: number;
  person: number;
  sleeping: number;
  backoff: number;
}

export const NONE: Totals = { working: 0, person: 0, sleeping: 0, backoff: 0 };

const ENDS = new Set(["task.done", "task.failed", "task.dead_lettered", "task.cancelled"]);
const ACTIVE = new Set(["in_progress", "waiting", "ready"]);

/** The moment a retry becomes claimable, by the retry's task id (`task.failed` `retry_at`). */
export function retryMoments(events: EventEnvelope[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const e of events) {
    if (e.name !== "task.failed") continue;
    const id = e.data.retry_task_id;
    const at = e.data.retry_at;
    if (typeof id === "number" && typeof at === "string") out.set(id, Date.parse(at));
  }
  return out;
}

/** The phases of one attempt, oldest first. `events` are this task's, in id order. */
export function phasesOf(
  task: TaskView,
  events: EventEnvelope[],
  retryAt: number | undefined,
  now: number,
): Phase[] {
  const phases: Phase[] = [];
  const created = Date.parse(task.created);
  let kind: PhaseKind | null = "queued";
  let since = created;
  const close = (at: number) => {
    if (kind !== null && at > since) phases.push({ kind, from: since, to: at });
  };
  const open = (next: PhaseKind | null, at: number) => {
    close(at);
    kind = next;
    since = Math.max(at, since);
  };
  const backoffUntil = retryAt ?? (task.not_before ? Date.parse(task.not_before) : undefined);
  if (backoffUntil !== undefined && backoffUntil > created) {
    kind = "backoff";
    const started = events.find((e) => e.name === "task.started");
    const until = Math.min(backoffUntil, started ? Date.parse(started.created) : backoffUntil);
    open("queued", Math.min(until, now));
  }
  if (!events.length && task.started) {
    // No events read (yet): the timestamps alone, all of it counted as work.
    open("working", Date.parse(task.started));
    if (task.finished) open(null, Date.parse(task.finished));
  }
  for (const e of events) {
    const at = Date.parse(e.created);
    if (e.name === "task.started") open("working", at);
    else if (e.name === "task.waiting") open("person", at);
    else if (e.name === "task.sleeping") open("sleeping", at);
    else if (e.name === "task.resumed") open("working", at);
    else if (e.name === "task.status_set" && e.data.to === "ready") open("queued", at);
    else if (ENDS.has(e.name)) open(null, at);
  }
  if (kind !== null) {
    const end = task.finished && !ACTIVE.has(task.status) ? Date.parse(task.finished) : now;
    if (end > since) phases.push({ kind, from: since, to: end, open: ACTIVE.has(task.status) });
  }
  return phases;
}

export function totals(phases: Phase[]): Totals {
  const t: Totals = { working: 0, person: 0, sleeping: 0, backoff: 0 };
  for (const p of phases) if (p.kind !== "queued") t[p.kind] += p.to - p.from;
  return t;
}

export function addTotals(a: Totals, b: Totals): Totals {
  return {
    working: a.working + b.working,
    person: a.person + b.person,
    sleeping: a.sleeping + b.sleeping,
    backoff: a.backoff + b.backoff,
  };
}

/** "850 ms", "12 s", "3 min", "1 h 5 min", "2 d 3 h". */
export function span(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

export const PHASE_TEXT: Record<PhaseKind, string> = {
  queued: "queued",
  backoff: "in retry backoff",
  working: "working",
  person: "waiting on a person",
  sleeping: "sleeping",
};

/** "12 s working · 3 min waiting on a person" (only the parts that took time). */
export function totalsText(t: Totals): string {
  const parts = [`${span(t.working)} working`];
  if (t.person) parts.push(`${span(t.person)} ${PHASE_TEXT.person}`);
  if (t.sleeping) parts.push(`${span(t.sleeping)} ${PHASE_TEXT.sleeping}`);
  if (t.backoff) parts.push(`${span(t.backoff)} ${PHASE_TEXT.backoff}`);
  return parts.join(" · ");
}

/** Every task's events, by task id, in id order. */
export function eventsByTask(events: EventEnvelope[]): Map<number, EventEnvelope[]> {
  const out = new Map<number, EventEnvelope[]>();
  for (const e of events) {
    if (e.task_id === null || e.task_id === undefined) continue;
    const list = out.get(e.task_id);
    if (list) list.push(e);
    else out.set(e.task_id, [e]);
  }
  return out;
}

export interface TaskPhases {
  task: TaskView;
  phases: Phase[];
  totals: Totals;
}

export function runPhases(tasks: TaskView[], events: EventEnvelope[], now: number): TaskPhases[] {
  const byTask = eventsByTask(events);
  const retries = retryMoments(events);
  return tasks.map((task) => {
    const phases = phasesOf(task, byTask.get(task.id) ?? [], retries.get(task.id), now);
    return { task, phases, totals: totals(phases) };
  });
}
