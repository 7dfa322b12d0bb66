// Registered workflows: their description, registration bodies and source view.
import { z } from "zod";
import { MAX_TARGET_LENGTH } from "../limits.ts";
import { doc, int, isoDate, named, nameInput } from "./common.ts";
import { ActionOut, PanelOut } from "./plugins.ts";

export const NodeOut = named(
  "NodeOut",
  z.object({
    edges: z.array(z.string()),
    generation: int(),
    label: z.string(),
    description: z.string().nullable().optional(),
    priority: int().nullable().optional(),
    retries: int().nullable().optional(),
    timeout: z.number().nullable().optional(),
  }),
);
export type NodeOut = z.infer<typeof NodeOut>;

export const WorkflowPlugin = named(
  "WorkflowPlugin",
  z.object({
    actions: z.array(ActionOut),
    panels: z.array(PanelOut),
  }),
);
export type WorkflowPlugin = z.infer<typeof WorkflowPlugin>;

export const WorkflowOut = named(
  "WorkflowOut",
  z.object({
    name: z.string(),
    start: z.string(),
    nodes: z.record(z.string(), NodeOut),
    pool: z.string(),
    capacity: int(),
    in_flight: int(),
    target: z.string().nullable().optional(),
    plugin: WorkflowPlugin,
    input_schema: doc(
      z.record(z.string(), z.unknown()).optional(),
      "The JSON Schema of the run's input, which the start node declares; absent when none.",
    ),
  }),
);
export type WorkflowOut = z.infer<typeof WorkflowOut>;

// A lone surrogate (`"\ud800"`) is valid in a JSON string but has no UTF-8 form, so a target
// holding one could be neither loaded as a path nor written to the configuration file.
const LONE_SURROGATE = /\p{Cs}/u;

/** A registration target as sent: bounded, and text that has a UTF-8 form. */
const targetInput = () =>
  z
    .string()
    .max(MAX_TARGET_LENGTH)
    .refine((t) => !LONE_SURROGATE.test(t), { message: "Must not hold a lone surrogate." });

export const RegisterWorkflow = named(
  "RegisterWorkflow",
  z.object({
    target: targetInput(),
    pool: nameInput().nullable().optional(),
    persist: z.boolean().optional(),
  }),
);
export type RegisterWorkflow = z.infer<typeof RegisterWorkflow>;

export const ReloadWorkflow = named(
  "ReloadWorkflow",
  z.object({
    target: targetInput().nullable().optional(),
    pool: nameInput().nullable().optional(),
    persist: z.boolean().optional(),
  }),
);
export type ReloadWorkflow = z.infer<typeof ReloadWorkflow>;

export const RemovedWorkflowOut = named(
  "RemovedWorkflowOut",
  z.object({
    workflow: z.string(),
    task_ids: z.array(int()),
  }),
);
export type RemovedWorkflowOut = z.infer<typeof RemovedWorkflowOut>;

export const FailureGroup = named(
  "FailureGroup",
  z.object({
    message: doc(z.string(), "The one-line error the attempts failed with."),
    count: doc(int(), "Failed and dead-lettered attempts with that message."),
    last_task_id: int(),
    last_run_id: z.string(),
    last_at: doc(isoDate(), "When the latest of them failed."),
  }),
  "A workflow's failed attempts grouped by their error message.",
);
export type FailureGroup = z.infer<typeof FailureGroup>;

export const SourceOut = named(
  "SourceOut",
  z.object({
    file: z.string(),
    source: z.string(),
    nodes: z.record(z.string(), z.object({ line: int() })),
  }),
);
export type SourceOut = z.infer<typeof SourceOut>;
