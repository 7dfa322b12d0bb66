// Finding runs (GET /api/runs): the store filter a query asks for, the page cursors of each
// sort, and which runs wait on a person (`waiting_on_people`, GET /api/runs/counts).
import {
  type RequestRecord,
  type RunFilter,
  type RunRecord,
  type RunSort,
  type StoreReader,
  type TaskRecord,
  TERMINAL_RUN_STATUSES,
} from "../engine/index.ts";
import type { RunListQuery } from "./api.ts";
import { ServiceError } from "./errors.ts";

const OPEN_STATUSES = ["queued", "running", "paused"] as const;

/** A cursor's `[number, id]` pair, or `[number, id, sort]` triple; null when not one we gave. */
function decodeTuple(cursor: string): [number, string, string?] | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const shaped = Array.isArray(value) && (value.length === 2 || value.length === 3);
    if (shaped && Number.isSafeInteger(value[0]) && typeof value[1] === "string") {
      if (value.length === 2) return [value[0], value[1]];
      if (typeof value[2] === "string") return [value[0], value[1], value[2]];
    }
  } catch {
    // not base64url JSON
  }
  return null;
}

function encode(value: unknown[]): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function invalidCursor(where: "query" | "body"): ServiceError {
  return new ServiceError("validation", "The cursor is not one this server gave.", {
    errors: [{ loc: [where, "cursor"], msg: "Invalid cursor", type: "value_error" }],
  });
}

/**
 * The cursor of a page ending at `run`. Dispatch order: `[position, id]` (as ever); a time sort:
 * `[time, id, sort]`, so a cursor is refused by a request of another sort.
 */
export function encodeRunCursor(run: RunRecord, sort: RunSort): string {
  return sort === "position" ? encode([run.position, run.id]) : encode([run[sort], run.id, sort]);
}

/** A dispatch-order cursor's run and position, or a time sort's keyset. */
export function decodeRunCursor(
  cursor: string,
  sort: RunSort,
): { position: number; id: string } | { at: number; id: string } {
  const tuple = decodeTuple(cursor);
  if (tuple === null) throw invalidCursor("query");
  const [n, id, of] = tuple;
  if (sort === "position" && of === undefined && n >= 1) return { position: n, id };
  if (sort !== "position" && of === sort) return { at: n, id };
  throw invalidCursor("query");
}

/** The `cursor` of an operation in bulk: the last run an answer took, by created and id. */
export function decodeBulkCursor(cursor: string): { created: number; id: string } {
  const tuple = decodeTuple(cursor);
  if (tuple !== null && tuple[2] === undefined) return { created: tuple[0], id: tuple[1] };
  throw invalidCursor("body");
}

/** The store filter of a run list query, without its page position. */
export function runFilter(query: RunListQuery): RunFilter {
  const filter: RunFilter = { status: query.status, workflow: query.workflow };
  if (query.q !== undefined && query.q !== "") filter.search = query.q;
  if (query.ended !== undefined) {
    filter.statuses = query.ended ? TERMINAL_RUN_STATUSES : OPEN_STATUSES;
  }
  if (query.created_after !== undefined) filter.createdFrom = Date.parse(query.created_after);
  if (query.created_before !== undefined) filter.createdBefore = Date.parse(query.created_before);
  if (query.sort !== undefined && query.sort !== "position") filter.sort = query.sort;
  if (query.limit !== undefined) filter.limit = query.limit + 1;
  return filter;
}

/**
 * Whether every outstanding attempt of the run waits on a person: the run is queued or running
 * (not paused, not ended), none of its attempts is ready or in progress, and each waiting one
 * has an open request of its own (a sleeping attempt has none). `going` are the run's attempts
 * in progress or waiting; `hasReady` is asked only when the rest holds.
 */
export async function isWaitingOnPeople(
  run: RunRecord,
  going: readonly TaskRecord[],
  pending: readonly RequestRecord[],
  hasReady: () => Promise<boolean>,
): Promise<boolean> {
  if (run.status !== "running" && run.status !== "queued") return false;
  if (pending.length === 0 || going.length === 0) return false;
  const asked = new Set(pending.map((r) => r.task_id));
  if (!going.every((t) => t.status === "waiting" && asked.has(t.id))) return false;
  return !(await hasReady());
}

/** A run's ready attempts exist (the one read `isWaitingOnPeople` may need). */
export function readyOf(store: StoreReader, runId: string): () => Promise<boolean> {
  return async () => (await store.listTasks({ run_id: runId, status: ["ready"] })).length > 0;
}

/** How many runs wait on a person, over every run with an open request. */
export async function countWaitingOnPeople(store: StoreReader): Promise<number> {
  const pending = await store.listRequests({ pending: true });
  if (pending.length === 0) return 0;
  const byRun = new Map<string, RequestRecord[]>();
  for (const r of pending) byRun.set(r.run_id, [...(byRun.get(r.run_id) ?? []), r]);
  let n = 0;
  for (const [runId, requests] of byRun) {
    const run = await store.getRun(runId);
    if (run === null) continue;
    const going = await store.listTasks({ run_id: runId, status: ["in_progress", "waiting"] });
    if (await isWaitingOnPeople(run, going, requests, readyOf(store, runId))) n += 1;
  }
  return n;
}
