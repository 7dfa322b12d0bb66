// "Why is this not running?": the reasons the server gives for one task or one run
// (GET /api/tasks/{task_id}/explain, GET /api/runs/{run_id}/explain; docs/http.md "Explain").
import { z } from "zod";
import { doc, int, isoDate, named, RunStatus, TaskStatus } from "./common.ts";

const message = () => doc(z.string(), "One sentence for a person, in the console's words.");

const reason = <C extends string, S extends z.ZodRawShape>(code: C, describe: string, shape: S) =>
  doc(z.object({ code: z.literal(code), message: message(), ...shape }), describe);

export const SlotHolder = named(
  "SlotHolder",
  z.object({
    task_id: int(),
    run_id: z.string(),
    node: z.string(),
    since: doc(isoDate().nullable(), "When the attempt was claimed."),
  }),
  "An attempt that holds a slot of a pool now.",
);
export type SlotHolder = z.infer<typeof SlotHolder>;

export const ExplainReason = named(
  "ExplainReason",
  z.discriminatedUnion("code", [
    reason("finished", "The task (or run) has ended: nothing will run it again by itself.", {
      status: doc(z.union([TaskStatus, RunStatus]), "Its terminal status."),
      since: isoDate().nullable(),
    }),
    reason("running", "It is running: which attempt, since when, and whether a body runs it.", {
      attempt: int(),
      since: isoDate().nullable(),
      live: doc(
        z.boolean(),
        "Whether a body of it runs in this server now; false means the row waits for recovery.",
      ),
    }),
    reason("waiting_on_person", "It waits for an answer to its open requests.", {
      request_ids: z.array(int()),
      since: isoDate().nullable(),
    }),
    reason("run_paused", "Its run is paused: nothing of it is claimed until it is resumed.", {
      since: doc(isoDate(), "When the run last changed (its `updated`)."),
    }),
    reason("workflow_unregistered", "Its run's workflow is not registered.", {
      workflow: z.string(),
    }),
    reason("pool_full", "Every slot of its workflow's pool is held.", {
      pool: z.string(),
      capacity: int(),
      in_flight: int(),
      holders: doc(z.array(SlotHolder), "The attempts holding the slots, oldest claim first."),
    }),
    reason("queued_behind", "Ready tasks on its pool come first in dispatch order.", {
      pool: z.string(),
      ahead: doc(
        int(),
        "Ready tasks of queued or running runs on the pool that a claim takes before it (run " +
          "position, then priority descending, then created, then id).",
      ),
    }),
    reason("not_due", "A retry backoff or a sleep is not due yet.", {
      until: isoDate(),
    }),
    reason("next", "Nothing holds it back: it is first in line with a slot free.", {
      pool: z.string(),
    }),
  ]),
  "One reason a task is not running (or, for `running` and `finished`, what it does instead).",
);
export type ExplainReason = z.infer<typeof ExplainReason>;

export const TaskExplain = named(
  "TaskExplain",
  z.object({
    task_id: int(),
    run_id: z.string(),
    node: z.string(),
    status: TaskStatus,
    reasons: doc(z.array(ExplainReason), "Most decisive first; never empty."),
  }),
  "Why a task is (not) running, computed now from the store and the registry.",
);
export type TaskExplain = z.infer<typeof TaskExplain>;

export const RunExplain = named(
  "RunExplain",
  z.object({
    run_id: z.string(),
    status: RunStatus,
    reasons: doc(
      z.array(ExplainReason),
      "What holds the run as a whole (`finished`, `run_paused`, `workflow_unregistered`); " +
        "empty when only its tasks say.",
    ),
    tasks: doc(
      z.array(TaskExplain),
      "Each ready, in-progress or waiting task of the run, in id order.",
    ),
  }),
  "Why a run is (not) running.",
);
export type RunExplain = z.infer<typeof RunExplain>;
