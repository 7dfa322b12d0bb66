// Compiles a workflow's raw plugin declarations (typescript.md section 4) into what the
// manifest lists and the plugin routes run. Problems are collected, never thrown, so that
// registration can refuse with every one of them (stage "plugins") in a single answer.

import path from "node:path";
import type { FinalGraph, Workflow } from "../authoring/index.ts";
import { ACTION_KEYS, compileAction } from "./compile-action.ts";
import { compilePanel, PANEL_KEYS, type PanelContext } from "./compile-panel.ts";
import { DeclarationReader, declarationName } from "./declaration-reader.ts";
import { inputModelOf } from "./input-model.ts";
import type { AssetRef, CompiledAction, CompiledPanel, CompiledPlugin } from "./types.ts";

/** What the declarations are checked against; absent parts are not checked. */
export interface CompileContext {
  /** The finalized graph: panel `node`s must name its nodes. */
  graph?: FinalGraph | null;
  /** The workflow's file: assets are relative to it and must exist. Null: not from a file. */
  file?: string | null;
}

export interface Compiled {
  plugin: CompiledPlugin;
  problems: string[];
}

type Decls = ReadonlyArray<Record<string, unknown>>;

export function compilePlugins(wf: Workflow, ctx: CompileContext = {}): Compiled {
  const problems: string[] = [];
  const actions = compileAll(wf.actions, "action", problems, (name, read) =>
    compileAction(name, read),
  );
  const panelCtx: PanelContext = {
    workflow: wf.name,
    actions: new Set(declaredNames(wf.actions)),
    nodes: ctx.graph ? new Set(ctx.graph.nodes.keys()) : null,
    dir: ctx.file ? path.dirname(ctx.file) : null,
    fromFile: ctx.file !== null,
  };
  const panels = compileAll(wf.panels, "panel", problems, (name, read) =>
    compilePanel(name, read, panelCtx),
  );
  // The run input the start node declares is an input model too (service/run-input.ts).
  const start = ctx.graph?.nodes.get(ctx.graph.start);
  const input = start ? inputModelOf(start.input ?? null) : null;
  if (typeof input === "string") problems.push(`start node "${start!.name}": ${input}`);
  return { plugin: { workflow: wf.name, actions, panels, assets: assetsOf(panels) }, problems };
}

function declaredNames(decls: Decls): string[] {
  return decls.flatMap((d) =>
    d && typeof d === "object" && typeof d.name === "string" ? [d.name] : [],
  );
}

function compileAll<T extends CompiledAction | CompiledPanel>(
  decls: Decls,
  kind: "action" | "panel",
  problems: string[],
  compileOne: (name: string, read: DeclarationReader) => T | null,
): Map<string, T> {
  const out = new Map<string, T>();
  const seen = new Set<string>();
  decls.forEach((decl, i) => {
    if (decl === null || typeof decl !== "object" || Array.isArray(decl)) {
      problems.push(`${kind} #${i + 1}: must be an object such as { name: "approve", ... }`);
      return;
    }
    const { who, name, problem } = declarationName(decl, kind, i);
    if (problem) problems.push(problem);
    if (name !== null && seen.has(name)) problems.push(`${who}: declared twice`);
    const keys = kind === "action" ? ACTION_KEYS : PANEL_KEYS;
    const read = new DeclarationReader(decl, who, keys, problems);
    const compiled = name === null ? null : compileOne(name, read);
    if (name !== null && !seen.has(name) && compiled) out.set(name, compiled);
    if (name !== null) seen.add(name);
  });
  return out;
}

function assetsOf(panels: Map<string, CompiledPanel>): AssetRef[] {
  const byPath = new Map<string, AssetRef>();
  for (const p of panels.values()) if (p.asset) byPath.set(p.asset.path, p.asset);
  return [...byPath.values()];
}

/** Throws one Error listing every problem (the loader reports it as stage "plugins"). */
export function assertPlugins(wf: Workflow, ctx: CompileContext = {}): CompiledPlugin {
  const { plugin, problems } = compilePlugins(wf, ctx);
  if (problems.length > 0) throw new Error(`workflow "${wf.name}": ${problems.join("; ")}`);
  return plugin;
}
