// Runs: the list and detail views, their outputs and totals, and the operator's run bodies.
import { z } from "zod";
import {
  anyJson,
  doc,
  int,
  isoDate,
  lineInput,
  named,
  nameInput,
  RunStatus,
  textInput,
} from "./common.ts";
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
  unregistered: z.boolean().optional(),
};

export const RunSummary = named("RunSummary", z.object(summaryShape));
export type RunSummary = z.infer<typeof RunSummary>;

export const RunDetail = named(
  "RunDetail",
  z.object({
    ...summaryShape,
    description: z.string().optional(),
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
  }),
);
// The type is what a caller may send (description optional); the parsed body always has one.
export type NewRun = z.input<typeof NewRun>;

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
  }),
);
export type RunCounts = z.infer<typeof RunCounts>;
