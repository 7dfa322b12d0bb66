// A workflow's run input: the schema its start node declares (`input`), compiled once per graph
// by the plugin compiler's input models (zod or JSON Schema), and the check of a submit's input.
import type { RegisteredWorkflow } from "../engine/index.ts";
import { inputModelOf } from "../plugins/input-model.ts";
import type { InputModel } from "../plugins/types.ts";
import { validation } from "./errors.ts";

const models = new WeakMap<object, InputModel | null>();

/** The workflow's input model, null when its start node declares none (or an unusable one). */
export function runInputModel(wf: RegisteredWorkflow): InputModel | null {
  const graph = wf.graph;
  let model = models.get(graph);
  if (model === undefined) {
    const compiled = inputModelOf(graph.nodes.get(graph.start)?.input ?? null);
    model = typeof compiled === "string" ? null : compiled;
    models.set(graph, model);
  }
  return model;
}

/** Why a declared input schema cannot be used, or null (none declared, or usable). */
export function runInputProblem(input: unknown): string | null {
  const compiled = inputModelOf(input ?? null);
  return typeof compiled === "string" ? compiled : null;
}

/**
 * The input to store: as sent when the workflow declares no schema; else the parsed value
 * (defaults filled; an absent input is checked too), or a `validation` refusal with one issue
 * per misfit under `body.input`.
 */
export function checkRunInput(wf: RegisteredWorkflow | undefined, input: unknown): unknown {
  const model = wf ? runInputModel(wf) : null;
  // Without a schema nothing is checked (a submit without input costs nothing more).
  if (!model) return input;
  const checked = model.check(input);
  if (!checked.ok)
    throw validation("The run's input does not match the workflow's input schema.", checked.issues);
  return checked.value;
}
