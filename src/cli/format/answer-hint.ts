// How a person answers a request from the command line: the `yardmaster answer` flag that fits
// its mode. The inbox lists it per request; `submit --wait` prints it when its run asks.
import type { RequestView } from "../client/api-types.ts";

/** How to answer: the option ids to pick from, or the kind of value expected (a form's fields). */
export function answerHint(request: RequestView): string {
  if (request.mode === "options") {
    const ids = (request.options ?? []).map((o) => o.option_id);
    return `--option ${ids.join("|")}`;
  }
  if (request.mode !== "form") return "--text STRING";
  const fields = formFields(request);
  return fields.length ? `--value {${fields.join(", ")}}` : "--value JSON";
}

/** The top-level fields a form request's schema names, in its order. */
export function formFields(request: RequestView): string[] {
  return Object.keys((request.schema?.properties as object | undefined) ?? {});
}
