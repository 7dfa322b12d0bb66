// The loader: a target string to a finalized workflow, stage by stage (target, import,
// attribute, finalize, plugins; each failure a WorkflowLoadError naming its stage), and the
// source of a loaded file as GET /api/workflows/{name}/source reads it.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";
import {
  type FinalGraph,
  type FinalizeHints,
  isWorkflow,
  type LoadedWorkflow,
  type NodeDefaults,
  type Workflow,
} from "../authoring/index.ts";
import { describeImportError } from "./import-error.ts";
import { validatePlugins } from "./plugins.ts";
import { installSelfResolution } from "./self-resolve.ts";
import { scanSource } from "./source-scan-client.ts";
import { type ParsedTarget, parseTarget } from "./target.ts";
import {
  type PlacedTarget,
  placeTarget,
  type TargetPlace,
  TargetPlaceError,
  targetPlace,
} from "./target-roots.ts";

/** Where loading stopped, as `workflow_load_failed` reports it. */
export type LoadStage = "target" | "import" | "attribute" | "finalize" | "plugins";

export class WorkflowLoadError extends Error {
  readonly target: string;
  readonly stage: LoadStage;
  /** The underlying error's full message. */
  readonly detail: string;
  constructor(target: string, stage: LoadStage, detail: string) {
    super(`cannot load workflow target "${target}" (stage ${stage}): ${detail}`);
    this.name = "WorkflowLoadError";
    this.target = target;
    this.stage = stage;
    this.detail = detail;
  }
}

export type { LoadedWorkflow };

/**
 * Imports a target and finalizes its workflow. Every call imports the file afresh (tsx's
 * `tsImport` puts each call in its own namespace), so a replaced workflow sees the file as it
 * is on disk now; the price is that earlier copies stay in the module cache. `onPicked` sees the
 * workflow object before its graph is checked (a reload refuses another name first); what it
 * throws propagates as is. `place` is the folder the target is relative to and the workflow
 * roots it must resolve into (target-roots.ts); a bare folder is its own only root.
 */
export async function loadTarget(
  target: string,
  place: string | TargetPlace,
  defaults?: NodeDefaults,
  onPicked?: (wf: Workflow) => void,
): Promise<LoadedWorkflow> {
  const where = targetPlace(place);
  const parsed = parseTarget(target, where.baseDir);
  if (typeof parsed === "string") throw new WorkflowLoadError(target, "target", parsed);
  const { namespace, file } = await importTarget(target, parsed, where);
  const wf = pickWorkflow(target, parsed, namespace);
  onPicked?.(wf);
  const hints = await sourceHints(file, parsed.exportName);
  let graph: FinalGraph;
  try {
    graph = wf.finalize(defaults, hints);
  } catch (err) {
    throw new WorkflowLoadError(target, "finalize", messageOf(err));
  }
  try {
    validatePlugins(wf);
  } catch (err) {
    throw new WorkflowLoadError(target, "plugins", messageOf(err));
  }
  return { workflow: wf, graph, file, exportName: parsed.exportName };
}

async function importTarget(
  target: string,
  parsed: ParsedTarget,
  place: TargetPlace,
): Promise<{ namespace: Record<string, unknown>; file: string | null }> {
  let placed: PlacedTarget;
  try {
    placed = await placeTarget(parsed, place);
  } catch (err) {
    if (err instanceof TargetPlaceError)
      throw new WorkflowLoadError(target, err.stage, err.message);
    throw err;
  }
  const { specifier, parentURL } = placed;
  const imported: string[] = [];
  installSelfResolution();
  try {
    const namespace = await tsImport(specifier, { parentURL, onImport: (u) => imported.push(u) });
    // The entry module is loaded before anything it imports, so it is reported first.
    return { namespace, file: placed.file ?? fileOfUrl(imported[0]) };
  } catch (err) {
    const detail = await describeImportError(err, placed.file ?? fileOfUrl(imported[0]));
    throw new WorkflowLoadError(target, "import", detail);
  }
}

function fileOfUrl(url: string | undefined): string | null {
  if (!url?.startsWith("file:")) return null;
  return fileURLToPath(url.split("?")[0]!);
}

function pickWorkflow(
  target: string,
  parsed: ParsedTarget,
  namespace: Record<string, unknown>,
): Workflow {
  const from = parsed.kind === "file" ? parsed.file : parsed.specifier;
  const name = parsed.exportName;
  if (!(name in namespace)) {
    const names = Object.keys(namespace).join(", ") || "nothing";
    throw new WorkflowLoadError(
      target,
      "attribute",
      `${from} has no export "${name}" (it exports: ${names})`,
    );
  }
  const value = namespace[name];
  if (!isWorkflow(value)) {
    const what = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
    throw new WorkflowLoadError(
      target,
      "attribute",
      `export "${name}" of ${from} is ${what}, not a workflow; export the object that ` +
        'workflow("name") returns',
    );
  }
  return value;
}

/** Doc comments from the file; a file we cannot read or parse just gives no hints. */
async function sourceHints(file: string | null, exportName: string): Promise<FinalizeHints> {
  if (!file) return {};
  try {
    const scanned = await scanSource(file, await readFile(file, "utf8"), exportName);
    const descriptions: Record<string, string> = {};
    for (const [name, node] of scanned) if (node.doc) descriptions[name] = node.doc;
    return { descriptions };
  } catch {
    return {};
  }
}

/** Text and node lines for GET /api/workflows/{name}/source; null when there is no file now. */
export async function readSource(
  loaded: LoadedWorkflow,
): Promise<{ file: string; source: string; nodes: Record<string, { line: number }> } | null> {
  if (!loaded.file) return null;
  let source: string;
  try {
    source = await readFile(loaded.file, "utf8");
  } catch {
    return null;
  }
  const nodes: Record<string, { line: number }> = {};
  for (const [name, node] of await scanSource(loaded.file, source, loaded.exportName)) {
    if (loaded.graph.nodes.has(name)) nodes[name] = { line: node.line };
  }
  return { file: loaded.file, source, nodes };
}

function messageOf(err: unknown): string {
  if (err instanceof Error || (typeof err === "object" && err !== null && "message" in err)) {
    return String((err as Error).message);
  }
  return String(err);
}
