// `ctx.ask`: a node body asks a person. The request is stored, the task goes `waiting`, gives up
// its pool slot and stops its node-timeout clock. When the answer is recorded the attempt takes
// a slot again (before any new claim on its pool), goes back to `in_progress` (`task.resumed`)
// and the ask resolves with the option id or the value.
//
// Durability: asks are numbered 1, 2, ... within the attempt. If the body runs again (after a
// restart), an ask whose ordinal already has a request reuses it: answered ones resolve at once,
// pending ones are waited on, so a person is never asked twice.
import type { TaskContext } from "../authoring/index.ts";
import type { Json, RequestOption, RequestRecord } from "./domain.ts";
import type { AttemptHandle } from "./task-context.ts";

type AskOptions = Parameters<TaskContext["ask"]>[0];

function normalizeOptions(options: AskOptions["options"]): RequestOption[] | null {
  if (!options) return null;
  return options.map((o) =>
    typeof o === "string"
      ? { option_id: o, name: o, kind: null }
      : { option_id: o.option_id, name: o.name ?? o.option_id, kind: o.kind ?? null },
  );
}

async function openRequest(h: AttemptHandle, opts: AskOptions, ordinal: number) {
  const { core, task } = h;
  const options = normalizeOptions(opts.options);
  return core.uow.run(async (work) => {
    const existing = (await work.tx.listRequests({ task_id: task.id })).find(
      (r) => r.source === "node" && r.ordinal === ordinal,
    );
    if (existing) return existing;
    const req = await work.tx.insertRequest({
      run_id: task.run_id,
      task_id: task.id,
      node: task.node,
      kind: opts.kind ?? "question",
      mode: options ? "options" : opts.schema ? "form" : "text",
      source: "node",
      ordinal,
      prompt: String(opts.prompt),
      options,
      schema: (opts.schema ?? null) as Record<string, Json> | null,
      tool_call: null,
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
      ordinal,
      request_id: req.id,
      source: "node",
    });
    return req;
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

function answerOf(h: AttemptHandle, requestId: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const signal = h.live.abort.signal;
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

export async function askPerson(
  h: AttemptHandle,
  opts: AskOptions,
  ordinal: number,
): Promise<unknown> {
  const req = await openRequest(h, opts, ordinal);
  if (req.answered_by) return req.answer;
  signalCheck(h);
  if (!(await park(h, req))) throw h.live.abort.signal.reason ?? new Error("attempt ended");
  h.live.timer?.pause();
  h.core.slots.release(h.live);
  await answerOf(h, req.id);
  await h.core.slots.reacquire(h.live);
  signalCheck(h);
  const answered = (await h.core.store.getRequest(req.id))!;
  await h.core.uow.run(async (work) => {
    const task = await work.tx.getTask(h.task.id);
    const resumed = await work.tx.updateTask(
      h.task.id,
      { status: "in_progress", waiting_since: null },
      { status: ["waiting"], claim: h.live.claim },
    );
    if (!resumed) return;
    const waited = task?.waiting_since ? (work.now - task.waiting_since) / 1000 : 0;
    work.emit("task.resumed", h.task.run_id, h.task.id, {
      node: h.task.node,
      request_id: req.id,
      waited_s: waited,
    });
  });
  h.live.timer?.resume();
  return answered.answer;
}

function signalCheck(h: AttemptHandle): void {
  if (h.live.abort.signal.aborted) throw h.live.abort.signal.reason;
}
