// The plugin manifest (actions and panels a workflow contributes) and the action call body.
import { z } from "zod";
import {
  anyJson,
  int,
  jsonObject,
  named,
  nameInput,
  PanelKind,
  Placement,
  Slot,
} from "./common.ts";

export const ActionOut = named(
  "ActionOut",
  z.object({
    name: z.string(),
    title: z.string(),
    scope: Slot,
    confirm: z.boolean(),
    schema: jsonObject(),
  }),
);
export type ActionOut = z.infer<typeof ActionOut>;

export const PanelOut = named(
  "PanelOut",
  z.object({
    name: z.string(),
    slot: Slot,
    placement: Placement,
    kind: PanelKind,
    scope: Slot,
    source: z.string().nullable().optional(),
    node: z.string().nullable().optional(),
    element: z.string().nullable().optional(),
    refresh_on: z.array(z.string()).optional(),
  }),
);
export type PanelOut = z.infer<typeof PanelOut>;

export const PluginManifestEntry = named(
  "PluginManifestEntry",
  z.object({
    workflow: z.string(),
    actions: z.array(ActionOut),
    panels: z.array(PanelOut),
    assets: z.array(z.string()),
  }),
);
export type PluginManifestEntry = z.infer<typeof PluginManifestEntry>;

export const ActionScope = named(
  "ActionScope",
  z.object({
    node: nameInput().nullable().optional(),
    run_id: nameInput().nullable().optional(),
    task_id: int().nullable().optional(),
  }),
);
export type ActionScope = z.infer<typeof ActionScope>;

export const ActionCall = named(
  "ActionCall",
  z.object({
    input: anyJson(),
    scope: ActionScope.optional(),
  }),
);
export type ActionCall = z.infer<typeof ActionCall>;
