// One `wf.action({ name, title, scope, confirm?, input?, handler })` declaration, checked and
// compiled (its input model becomes a JSON Schema plus a validator).
import type { DeclarationReader } from "./declaration-reader.ts";
import { inputModelOf } from "./input-model.ts";
import { type ActionHandler, type CompiledAction, SLOTS } from "./types.ts";

export const ACTION_KEYS = ["name", "title", "scope", "confirm", "input", "handler"] as const;

export function compileAction(name: string, read: DeclarationReader): CompiledAction | null {
  const title = read.text("title");
  const scope = read.oneOf("scope", SLOTS);
  const confirm = read.bool("confirm", false);
  const handler = read.fn<ActionHandler>("handler", true);
  const model = inputModelOf(read.raw("input"));
  if (typeof model === "string") read.problem(model);
  if (title === null || scope === null || handler === null || typeof model === "string") {
    return null;
  }
  return { name, title, scope, confirm, model, handler };
}
