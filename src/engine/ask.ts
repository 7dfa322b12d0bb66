// Asking a person. `ctx.ask` (a node body) and the agent runner's permission requests share the
// pieces here: a request is stored (`request.opened`), the task goes `waiting`, gives up its pool
// slot and stops its node-timeout clock. When the answer is recorded the attempt takes a slot
// again (before any new claim on its pool), goes back to `in_progress` (`task.resumed`) and the
// caller reads the answer.
//
// Durability of `ctx.ask`: asks are numbered 1, 2, ... within the attempt. If the body runs again
// (after a restart), an ask whose ordinal already has a request reuses it: answered ones resolve
// at once, pending ones are waited on, so a person is never asked twice. A stale one (its attempt
// was stopped, e.g. an operator set the waiting task back to ready) can no longer be answered, so
// the body asks again with a new request.
import type { TaskContext } from "../authoring/index.ts";
import { enterWait, leaveWait, signalCheck, takeSlotBack, whenNoOtherWaits } from "./ask-waits.ts";
import { attemptOwnsRow } from "./attempt-guard.ts";
import type { Json, RequestOption, RequestRecord, TaskRecord } from "./domain.ts";
import { type AttemptHandle, stoppedReason } from "./task-context.ts";
import type { Work } from "./unit-of-work.ts";

type AskOptions = Parameters<TaskContext["ask"]>[0];

/** What a new request says; the rest of the row (ids, answer, times) is filled in here. */
export type RequestFields = Pick<
  RequestRecord,
  "kind" | "mode" | "source" | "ordinal" | "prompt" | "options" | "schema" | "tool_call"
>;

/**
 * Marks the still-unanswered requests of an attempt stale: it has ended (or was stopped), so
 * nobody is left to consume an answer, and they leave the inbox (http-api.md "Request").
 */
export async function staleOpenRequests(
  work: Work,
  taskId: number,
  source?: RequestRecord["source"],
): Promise<void> {
  await work.tx.staleRequests(taskId, source);
}

/** Stores an unanswered request of `task` and announces it (`request.opened`). */
export async function insertOpenRequest(
  work: Work,
  task: TaskRecord,
  fields: RequestFields,
): Promise<RequestRecord> {
  const req = await work.tx.insertRequest({
    ...fields,
    run_id: task.run_id,
    task_id: task.id,
    node: task.node,
    answered_by: null,
    answer: null,
    stale: false,
    created: work.now,
    answered: null,
  });
  work.emit("request.opened", task.run_id, task.id, {
    kind: req.kind,
    mode: req.mode,
    node: req.node,
    ordinal: req.ordinal,
    request_id: req.id,
    source: req.source,
  });
  return req;
}

/** Options as stored. An empty list offers nothing to choose, so it asks for text instead. */
export function normalizeOptions(
  options:
    | Array<string | { option_id: string; name?: string | null; kind?: string | null }>
    | null
    | undefined,
): RequestOption[] | null {
  if (!options?.length) return null;
  return options.map((o) =>
    typeof o === "string"
      ? { option_id: o, name: o, kind: null }
      : { option_id: o.option_id, name: o.name ?? o.option_id, kind: o.kind ?? null },
  );
}

async function openNodeRequest(h: AttemptHandle, opts: AskOptions, ordinal: number) {
  const options = normalizeOptions(opts.options);
  return h.core.uow.run(async (work) => {
    // A request of an attempt stopped meanwhile would sit in the inbox with nobody to take it.
    if (!(await attemptOwnsRow(work, h.task.id, h.live.claim))) return null;
    const existing = (await work.tx.listRequests({ task_id: h.task.id })).find(
      (r) => r.source === "node" && r.ordinal === ordinal && !r.stale,
    );
    if (existing) return existing;
    return insertOpenRequest(work, h.task, {
      kind: opts.kind ?? "question",
      mode: options ? "options" : opts.schema ? "form" : "text",
      source: "node",
      ordinal,
      prompt: String(opts.prompt),
      options,
      schema: (opts.schema ?? null) as Record<string, Json> | null,
      tool_call: null,
    });
  });
}

/** Marks the attempt waiting on `req`; answers false when the attempt is not ours any more. */
async function park(h: AttemptHandle, req: RequestRecord): Promise<boolean> {
  return h.core.uow.run(async (work) => {
    const parked = await work.tx.updateTask(
      h.task.id,
      { status: "waiting", waiting_since: work.now },
      { status: ["in_progress", "waiting"], claim: h.live.claim },
    );
    if (parked)
      work.emit("task.waiting", h.task.run_id, h.task.id, {
        node: h.task.node,
        request_id: req.id,
      });
    return parked !== null;
  });
}

function answerOf(h: AttemptHandle, requestId: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // Stopped while it parked: an aborted signal never fires its listeners again.
    if (signal.aborted) return reject(signal.reason);
    const done = () => {
      unsubscribe();
      signal.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal.reason);
    };
    const unsubscribe = h.core.bus.subscribe((e) => {
      if (e.name === "request.answered" && e.data.request_id === requestId) {
        done();
        resolve();
      }
    });
    signal.addEventListener("abort", onAbort, { once: true });
    // The answer may have been committed before we subscribed.
    void h.core.store.getRequest(requestId).then((r) => {
      if (r?.answered_by) {
        done();
        resolve();
      }
    });
  });
}

/**
 * Parks the attempt on the open request `req` until a person answers it (and every other open
 * ask of the attempt is answered too), then takes a pool slot again and resumes; answers the
 * answered request. Rejects with the attempt's abort reason when it is stopped. `signal`
 * (default: the attempt's own) also ends the wait for the answer; if it is not the attempt's
 * signal, the task is left `waiting` without a slot and the caller decides what becomes of it.
 */
export async function awaitAnswer(
  h: AttemptHandle,
  req: RequestRecord,
  signal: AbortSignal = h.live.abort.signal,
): Promise<RequestRecord> {
  signalCheck(h);
  const waits = enterWait(h.live);
  try {
    if (!(await park(h, req))) throw h.live.abort.reason ?? new Error("attempt ended");
    h.live.timer?.pause();
    h.core.slots.release(h.live);
    await answerOf(h, req.id, signal);
  } finally {
    leaveWait(waits);
  }
  await Promise.race([whenNoOtherWaits(waits), h.live.abort.untilStopped()]);
  // A stopped attempt is never given its slot back, so the wait for it must end on abort too.
  // Several asks answered together: the first takes the slot, the others find it taken.
  await takeSlotBack(h, req.id);
  const answered = (await h.core.store.getRequest(req.id))!;
  h.live.timer?.resume();
  return answered;
}

export async function askPerson(
  h: AttemptHandle,
  opts: AskOptions,
  ordinal: number,
): Promise<unknown> {
  // A stopped attempt opens nothing: its request would sit in the inbox with nobody to take it.
  signalCheck(h);
  const req = await openNodeRequest(h, opts, ordinal);
  if (!req) throw stoppedReason(h);
  if (req.answered_by) return req.answer;
  return (await awaitAnswer(h, req)).answer;
}
