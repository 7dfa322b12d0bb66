// One `wf.panel({...})` declaration, checked against its kind: data kinds need a `data`
// function (mounted as the panel's data route), a form names one of the workflow's actions, a
// custom panel names its custom element and may bring the JavaScript module defining it.
import { existsSync } from "node:fs";
import path from "node:path";
import type { DeclarationReader } from "./declaration-reader.ts";
import {
  type AssetRef,
  type CompiledPanel,
  DATA_KINDS,
  type DataKind,
  PANEL_KINDS,
  type PanelDataFn,
  PLACEMENTS,
  SLOTS,
} from "./types.ts";

export const PANEL_KEYS = [
  "name",
  "slot",
  "placement",
  "kind",
  "scope",
  "data",
  "action",
  "node",
  "element",
  "asset",
  "refresh_on",
] as const;

/** What a panel may refer to; null members are not known here and are not checked. */
export interface PanelContext {
  workflow: string;
  actions: ReadonlySet<string>;
  nodes: ReadonlySet<string> | null;
  /** Folder of the workflow file; null when the check runs without it (assets unchecked). */
  dir: string | null;
  /** Whether the workflow came from a file at all (an asset needs one). */
  fromFile: boolean;
}

/** A custom element name: lowercase, starting with a letter, containing a hyphen. */
const ELEMENT = /^[a-z][a-z0-9._]*-[a-z0-9._-]*$/;
const ASSET_EXT = /\.m?js$/;

export function panelSource(workflow: string, panel: string): string {
  return `/api/plugins/${workflow}/panels/${panel}/data`;
}

export function compilePanel(
  name: string,
  read: DeclarationReader,
  ctx: PanelContext,
): CompiledPanel | null {
  const slot = read.oneOf("slot", SLOTS);
  const placement = read.oneOf("placement", PLACEMENTS);
  const kind = read.oneOf("kind", PANEL_KINDS);
  const scope = read.oneOf("scope", SLOTS);
  const node = read.text("node", false);
  if (node !== null && ctx.nodes && !ctx.nodes.has(node)) {
    read.problem(`"node" names ${JSON.stringify(node)}, which is not a node of this workflow`);
  }
  const refresh_on = read.stringList("refresh_on");
  if (slot === null || placement === null || kind === null || scope === null) return null;
  const base = { name, slot, placement, kind, scope, node, refresh_on };
  if ((DATA_KINDS as readonly string[]).includes(kind)) {
    return dataPanel(base, kind as DataKind, read, ctx);
  }
  if (kind === "form") return formPanel(base, read, ctx);
  return customPanel(base, read, ctx);
}

type Base = Pick<CompiledPanel, "name" | "slot" | "placement" | "kind" | "scope" | "node"> & {
  refresh_on: string[];
};

function dataPanel(base: Base, kind: DataKind, read: DeclarationReader, ctx: PanelContext) {
  read.absent(["action", "element", "asset"], `on a ${kind} panel`);
  const data = read.fn<PanelDataFn>("data", true);
  if (data === null) return null;
  const source = panelSource(ctx.workflow, base.name);
  return { ...base, source, element: null, data, asset: null };
}

function formPanel(base: Base, read: DeclarationReader, ctx: PanelContext) {
  read.absent(["data", "element", "asset"], "on a form panel (the action's input is the form)");
  const action = read.text("action");
  if (action === null) return null;
  if (!ctx.actions.has(action)) {
    read.problem(`"action" names ${JSON.stringify(action)}, which this workflow does not declare`);
    return null;
  }
  return { ...base, source: action, element: null, data: null, asset: null };
}

function customPanel(base: Base, read: DeclarationReader, ctx: PanelContext) {
  read.absent(["data", "action"], "on a custom panel (its element fetches what it needs)");
  const element = read.text("element");
  if (element !== null && !ELEMENT.test(element)) {
    read.problem(`"element" must be a custom element name with a hyphen, got "${element}"`);
    return null;
  }
  const asset = read.has("asset") ? assetOf(read, ctx) : null;
  if (element === null || asset === undefined) return null;
  return { ...base, source: null, element, data: null, asset };
}

/** The asset's place on disk; undefined after a problem, null when it cannot be checked here. */
function assetOf(read: DeclarationReader, ctx: PanelContext): AssetRef | null | undefined {
  const asset = read.text("asset");
  if (asset === null) return undefined;
  if (!ASSET_EXT.test(asset)) {
    read.problem(`"asset" must be a JavaScript module (.js or .mjs), got "${asset}"`);
    return undefined;
  }
  if (!ctx.fromFile) {
    read.problem(`"asset" needs a workflow loaded from a file (it is relative to that file)`);
    return undefined;
  }
  if (ctx.dir === null) return null;
  const file = path.resolve(ctx.dir, asset);
  const rel = path.relative(ctx.dir, file);
  if (rel.startsWith("..") || path.isAbsolute(rel)) {
    read.problem(`"asset" must stay inside the workflow file's folder, got "${asset}"`);
    return undefined;
  }
  if (!existsSync(file)) {
    read.problem(`"asset" file not found: ${file}`);
    return undefined;
  }
  return { path: rel.split(path.sep).join("/"), file };
}
