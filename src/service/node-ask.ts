// `ctx.ask` as the server runs it: the body's ask is held to the same bounds as an agent's HTTP
// ask (the Ask schema: prompt and option sizes), and a form's JSON Schema is compiled before the
// request is opened, so a request nobody could answer is never stored. A bad ask is the
// author's bug and would be the same on every try, so it throws NonRetryable.
import { NonRetryable } from "../authoring/errors.ts";
import type { ContextExtensions } from "../engine/index.ts";
import { excerpt } from "../lib/excerpt.ts";
import { formValidator } from "../lib/json-schema.ts";
import { Ask } from "./schemas/index.ts";

type AskExtension = NonNullable<ContextExtensions["ask"]>;

/** Wraps the engine's ask with the checks above. */
export function checkedAsk(ask: AskExtension): AskExtension {
  return async (handle, opts, ordinal) => {
    const parsed = Ask.safeParse(opts);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new NonRetryable(`ctx.ask: ${issue.path.join(".")}: ${excerpt(issue.message)}`);
    }
    const { schema } = parsed.data;
    if (schema) {
      const refused = formValidator(schema);
      if (typeof refused === "string") throw new NonRetryable(`ctx.ask: schema: ${refused}`);
    }
    return ask(handle, opts, ordinal);
  };
}
