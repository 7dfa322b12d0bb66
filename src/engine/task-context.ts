// The `ctx` a node body receives (typescript.md section 2). `ask` and `agent` are supplied by
// later layers through `ContextExtensions`, so the context is ready for them without the engine
// depending on human input or agent code.
import type { TaskContext } from "../authoring/index.ts";
import { attemptOwnsRow } from "./attempt-guard.ts";
import { checkAskInput, checkLogInput, publishData } from "./context-inputs.ts";
import type { EngineCore, LiveAttempt } from "./core.ts";
import type { RunRecord, TaskRecord } from "./domain.ts";
import { Interrupt } from "./interrupt.ts";
import { sleepUntil } from "./sleep.ts";
import { appendLog } from "./work-log.ts";

export interface AttemptHandle {
  core: EngineCore;
  task: TaskRecord;
  run: RunRecord;
  live: LiveAttempt;
  description: string;
}

export interface ContextExtensions {
  ask?(
    handle: AttemptHandle,
    opts: Parameters<TaskContext["ask"]>[0],
    ordinal: number,
  ): Promise<unknown>;
  /** `call`: 1, 2, ... in the order the attempt's body calls `ctx.agent` (like ask ordinals). */
  agent?(handle: AttemptHandle, opts: Record<string, unknown>, call: number): Promise<unknown>;
}

export function buildTaskContext(handle: AttemptHandle, ext: ContextExtensions): TaskContext {
  const { core, task, run, live } = handle;
  let asks = 0;
  let agents = 0;
  let sleeps = 0;
  const sleepTo = (at: number) => {
    sleeps += 1;
    return sleepUntil(handle, at, sleeps);
  };
  return {
    task: {
      id: task.id,
      run_id: task.run_id,
      workflow: run.workflow,
      node: task.node,
      attempt: task.attempt,
      title: run.title,
      description: run.description,
    },
    get signal() {
      return live.abort.signal;
    },
    log: async (text, opts) => {
      // A stopped attempt (cancelled, moved, deleted, timed out) writes nothing more: its run
      // may have ended, and `run.cancelled` / `run.deleted` must stay the run's last word.
      if (live.abort.aborted) throw live.abort.reason;
      const kind = checkLogInput(text, opts);
      const entry = await core.uow.run(async (work) => {
        if (!(await attemptOwnsRow(work, task.id, live.claim))) return null;
        return appendLog(work, {
          run_id: task.run_id,
          node: task.node,
          task_id: task.id,
          author: "engine",
          kind,
          text,
        });
      });
      // Stopped meanwhile: by now (after that commit) the stop's reason is set.
      if (!entry) throw stoppedReason(handle);
      return entry.id;
    },
    ask: async (opts) => {
      checkAskInput(opts);
      if (!ext.ask) return Promise.reject(new Error("ctx.ask is not available on this server"));
      asks += 1;
      return ext.ask(handle, opts, asks);
    },
    agent: (opts) => {
      if (!ext.agent) return Promise.reject(new Error("ctx.agent is not available on this server"));
      agents += 1;
      return ext.agent(handle, opts, agents);
    },
    sleep: async (seconds) => {
      if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) {
        throw new TypeError(`ctx.sleep takes a number of seconds >= 0, got ${String(seconds)}`);
      }
      return sleepTo(core.clock.now() + seconds * 1000);
    },
    sleepUntil: async (date) => {
      const at = date instanceof Date ? date.getTime() : new Date(date).getTime();
      if (!Number.isFinite(at)) {
        throw new TypeError(`ctx.sleepUntil takes a date, got ${String(date)}`);
      }
      return sleepTo(at);
    },
    publish: (name, data) => {
      const stored = publishData(name, data);
      if (live.abort.aborted) return;
      void core.uow
        .run(async (work) => {
          if (!(await attemptOwnsRow(work, task.id, live.claim))) return;
          work.emit(`plugin.${run.workflow}.${name}`, task.run_id, task.id, stored);
        })
        .catch(() => {});
    },
  };
}

/** Why a write of a stopped attempt was refused: its stop's reason, once that has fired. */
export function stoppedReason(h: AttemptHandle): unknown {
  return h.live.abort.reason ?? new Interrupt("ended");
}
