// Runs: the list and detail views, their outputs and totals, and the operator's run bodies.
import { z } from "zod";
import { MAX_BULK_RUNS, MAX_SUBMIT_BATCH } from "../limits.ts";
import {
  anyJson,
  doc,
  int,
  isoDate,
  isoInstantInput,
  lineInput,
  named,
  nameInput,
  RunStatus,
  textInput,
} from "./common.ts";
import { ErrorCode } from "./refs.ts";
import { BranchFrame, TaskView } from "./tasks.ts";

export const RunOutput = named(
  "RunOutput",
  z.object({
    node: z.string(),
    task_id: int(),
    branch: z.array(BranchFrame).optional(),
    value: anyJson(),
  }),
);
export type RunOutput = z.infer<typeof RunOutput>;

const measure = () => z.number().nullable().optional();
const count = () => z.int().nullable().optional();

export const RunStats = named(
  "RunStats",
  z.object({
    cost: measure(),
    duration_s: measure(),
    input_tokens: count(),
    output_tokens: count(),
    tool_calls: count(),
    total_tokens: count(),
  }),
  "Agent totals over the run; unset measurements are omitted, never zero-filled.",
);
export type RunStats = z.infer<typeof RunStats>;

const summaryShape = {
  id: z.string(),
  workflow: z.string(),
  title: z.string(),
  status: RunStatus,
  position: int(),
  created: isoDate(),
  updated: isoDate(),
  current_nodes: z.array(z.string()).optional(),
  pending_requests: int().optional(),
  waiting_on_people: doc(
    z.boolean().optional(),
    "Whether every outstanding attempt of the run waits on a person: it has an open request, " +
      "no attempt is ready or in progress, and none sleeps. The console labels such a run " +
      "*waiting on you*; `status` is unchanged (running). Present on every run this server answers.",
  ),
  unregistered: z.boolean().optional(),
};

export const RunSummary = named("RunSummary", z.object(summaryShape));
export type RunSummary = z.infer<typeof RunSummary>;

export const RunDetail = named(
  "RunDetail",
  z.object({
    ...summaryShape,
    description: z.string().optional(),
    input: doc(anyJson(), "The input the run was submitted with; absent when none was given."),
    output: anyJson(),
    outputs: z.array(RunOutput).optional(),
    stats: RunStats.optional(),
    tasks: z.array(TaskView).optional(),
  }),
);
export type RunDetail = z.infer<typeof RunDetail>;

export const NewRun = named(
  "NewRun",
  z.object({
    title: lineInput().min(1),
    description: textInput().default(""),
    input: doc(
      anyJson(),
      "The run's input, any JSON value: the start node's payload holds it as `input`. " +
        "Checked against the workflow's `input_schema` when it declares one. Absent or null: none.",
    ),
  }),
);
// The type is what a caller may send (description optional); the parsed body always has one.
export type NewRun = z.input<typeof NewRun>;

export const NewRuns = named(
  "NewRuns",
  doc(
    z.array(NewRun).min(1).max(MAX_SUBMIT_BATCH),
    `Runs to queue, in order: 1 to ${MAX_SUBMIT_BATCH.toLocaleString("en-US")}, all created or none.`,
  ),
);
export type NewRuns = z.input<typeof NewRuns>;

/** Printable ASCII (space to tilde); the length is the schema's (1 to 255). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7e]*$/;
const KEY_TEXT = "expected 1 to 255 printable ASCII characters";

// Headers other than the one documented pass through untouched (a loose object). The character
// check is a refinement rather than a `pattern`, which the document's fuzzer would not follow.
export const SubmitHeaders = z.looseObject({
  "idempotency-key": z
    .string()
    .min(1, { error: KEY_TEXT })
    .max(255, { error: KEY_TEXT })
    .refine((key) => IDEMPOTENCY_KEY_PATTERN.test(key), { error: KEY_TEXT })
    .optional()
    .meta({
      description:
        "1 to 255 printable ASCII characters. Makes the submit safe to retry: within the idempotency window the same key with the same workflow and body answers the run it created first (status 200, header `Idempotent-Replayed: true`); with another workflow or body it is refused (409 `conflict`).",
    }),
});

export const EditRun = named(
  "EditRun",
  z.object({
    title: lineInput().min(1).nullable().optional(),
    description: textInput().nullable().optional(),
  }),
  "An absent field is left alone; an edit naming neither field changes nothing.",
);
export type EditRun = z.infer<typeof EditRun>;

export const Position = named(
  "Position",
  z
    .object({
      direction: doc(
        z.literal([-1, 1]).nullable().optional(),
        "-1 swaps with the run above, 1 with the run below.",
      ),
      index: doc(z.int().nullable().optional(), "Zero-based target index; clamped."),
    })
    .refine((p) => (p.direction == null) !== (p.index == null), {
      message: "Exactly one of direction and index is required.",
    }),
  "Exactly one of `direction` and `index`; neither or both is a validation failure.",
);
export type Position = z.infer<typeof Position>;

export const Rerun = named("Rerun", z.object({ node: nameInput() }));
export type Rerun = z.infer<typeof Rerun>;

export const RunCounts = named(
  "RunCounts",
  z.object({
    total: int(),
    by_status: z
      .record(z.string(), int())
      .meta({ description: "Runs per status; every status is present, zero included." }),
    by_workflow: z.record(z.string(), z.record(z.string(), int())).meta({
      description: "Runs per workflow, then per status; only the statuses it has runs in.",
    }),
    waiting_on_people: doc(
      int().optional(),
      "Runs waiting on a person (`waiting_on_people` of the run view), counted apart: they are " +
        "also counted under their status.",
    ),
  }),
);
export type RunCounts = z.infer<typeof RunCounts>;

export const BulkAction = named(
  "BulkAction",
  z.enum(["cancel", "delete", "retry_failed"]),
  "What an operation in bulk does to each run: `cancel` it, `delete` it (ended runs only), or " +
    "`retry_failed`: retry each of its dead-lettered attempts, which re-opens the run.",
);

export const BulkRuns = named(
  "BulkRuns",
  z
    .object({
      action: BulkAction,
      run_ids: doc(
        z.array(nameInput().min(1)).min(1).max(MAX_BULK_RUNS).optional(),
        `These runs (at most ${MAX_BULK_RUNS}).`,
      ),
      filter: doc(
        z
          .object({
            status: RunStatus.optional(),
            workflow: nameInput().optional(),
            before: doc(
              isoInstantInput().optional(),
              "Only runs created before this instant (ISO-8601 date-time with an offset).",
            ),
          })
          .optional(),
        "The runs matching every field given, of the statuses the action applies to (cancel: " +
          "queued, running, paused; delete: completed, failed, cancelled; retry_failed: " +
          "failed), oldest first (by creation, then id).",
      ),
      limit: doc(
        z.int().min(1).max(MAX_BULK_RUNS).optional(),
        `With \`filter\`: at most this many runs (default and maximum ${MAX_BULK_RUNS}).`,
      ),
      cursor: doc(
        z.string().max(200).optional(),
        "With `filter`: the `next_cursor` of the previous answer, to go on after its runs.",
      ),
    })
    .refine((b) => (b.run_ids === undefined) !== (b.filter === undefined), {
      message: "Exactly one of run_ids and filter is required.",
    }),
  "Exactly one of `run_ids` and `filter`; neither or both is a validation failure.",
);
export type BulkRuns = z.infer<typeof BulkRuns>;

export const BulkRefusal = named(
  "BulkRefusal",
  z.object({
    run_id: z.string(),
    code: ErrorCode,
    message: doc(z.string(), "What the single operation on this run would have answered."),
  }),
);

export const BulkOut = named(
  "BulkOut",
  z.object({
    action: BulkAction,
    done: doc(int(), "How many runs the action was done to."),
    done_run_ids: doc(z.array(z.string()), "Those runs, in the order they were taken."),
    refused: z.array(BulkRefusal),
    more: doc(
      z.boolean(),
      "The filter matched more runs than `limit`: ask again with `cursor` set to `next_cursor`.",
    ),
    next_cursor: doc(
      z.string().nullable(),
      "With `filter`: where the next request goes on (null with `run_ids`, or when nothing matched).",
    ),
  }),
);
export type BulkOut = z.infer<typeof BulkOut>;
