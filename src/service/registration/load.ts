// Loading a target for registration: the loader's stages (target, import, attribute, finalize,
// plugins), then what only a registration can check: plugin declarations against the graph and
// the files beside the workflow (stage plugins), and the name (stage register).
import {
  type LoadedWorkflow,
  type LoadStage,
  loadTarget,
  type TargetPlace,
  validatePlugins,
  WorkflowLoadError,
} from "../../loading/index.ts";
import { ServiceError } from "../errors.ts";
import { reservedNameProblem } from "./reserved.ts";

export type RegistrationStage = LoadStage | "register";

export function loadFailed(
  target: string | null,
  stage: RegistrationStage,
  detail: string,
): ServiceError {
  const what = target === null ? "The workflow" : `Workflow target ${JSON.stringify(target)}`;
  return new ServiceError(
    "workflow_load_failed",
    `${what} did not load (stage ${stage}): ${detail}`,
    { target, stage, detail },
  );
}

/**
 * Loads `target` (relative to the configuration folder, and only from inside the workflow roots)
 * afresh from disk and checks it for registration. No node defaults are applied, so a NodeOut reports null for what the
 * workflow leaves unset. `checkName` sees the workflow's name as soon as the module has loaded:
 * a reload refuses a workflow of another name (409) before any check of that other workflow
 * (its graph, its plugins, a reserved name), which only matters to whoever registers it.
 */
export async function loadForRegistration(
  target: string,
  place: TargetPlace,
  checkName?: (name: string) => void,
): Promise<LoadedWorkflow> {
  let loaded: LoadedWorkflow;
  try {
    loaded = await loadTarget(target, place, undefined, (wf) => checkName?.(wf.name));
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    if (err instanceof WorkflowLoadError) throw loadFailed(target, err.stage, err.detail);
    throw loadFailed(target, "import", err instanceof Error ? err.message : String(err));
  }
  try {
    validatePlugins(loaded.workflow, { graph: loaded.graph, file: loaded.file });
  } catch (err) {
    throw loadFailed(target, "plugins", (err as Error).message);
  }
  const reserved = reservedNameProblem(loaded.graph.name);
  if (reserved) throw loadFailed(target, "register", reserved);
  return loaded;
}
