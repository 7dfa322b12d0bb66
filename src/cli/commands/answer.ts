// `yardmaster answer REQUEST (--option ID | --value JSON | --text STRING)`: records the one
// answer of a request; the waiting task resumes with it.

import { EXIT_FAILED } from "../cli-io.ts";
import type { ApiClient } from "../client/api-client.ts";
import { ApiRefusal, refusalLine } from "../client/client-errors.ts";
import { clientCommand, idArgument, printJson } from "../client/command-kit.ts";
import { formFields } from "../format/answer-hint.ts";
import { jsonOption, type ParsedArgs, stringOption, UsageError } from "../parse-args.ts";

export const run = clientCommand("answer", {
  positionals: ["REQUEST"],
  options: { option: "string", value: "string", text: "string" },
  async run({ client, args, parsed, io, json }) {
    const id = idArgument(args[0], "REQUEST");
    const body = answerBody(parsed);
    let view: Awaited<ReturnType<typeof answer>>;
    try {
      view = await answer(client, id, body);
    } catch (err) {
      if (!(err instanceof ApiRefusal && err.status === 422)) throw err;
      // An answer that did not fit the request: after the server's words, which flag it takes.
      io.err(`yardmaster answer: ${refusalLine(err)}`);
      const hint = await flagHint(client, id);
      if (hint) io.err(`yardmaster answer: ${hint}`);
      return EXIT_FAILED;
    }
    if (json) return void printJson(io, view);
    const by = view.operator ? ` by ${view.operator}` : "";
    io.out(`Request ${id} answered with ${JSON.stringify(view.answer ?? null)}${by}.`);
    return undefined;
  },
});

const answer = (client: ApiClient, id: number, body: ReturnType<typeof answerBody>) =>
  client.post("/api/requests/{request_id}/answer", { params: { request_id: id }, body });

/** Exactly one of the three; the request's own mode decides which one the server reads. */
function answerBody(parsed: ParsedArgs): { option_id: string } | { value: unknown } {
  const option = stringOption(parsed, "option");
  const value = stringOption(parsed, "value");
  const text = stringOption(parsed, "text");
  const given = [option, value, text].filter((v) => v !== undefined).length;
  if (given !== 1)
    throw new UsageError("give exactly one of --option ID, --value JSON, --text STRING");
  if (option !== undefined) return { option_id: option };
  if (text !== undefined) return { value: text };
  return { value: jsonOption(parsed, "value") };
}

/** Which flag answers request `id`, from its mode; null when the request cannot be read. */
async function flagHint(client: ApiClient, id: number): Promise<string | null> {
  const req = await client
    .get("/api/requests/{request_id}", { params: { request_id: id } })
    .catch(() => null);
  if (!req) return null;
  if (req.mode === "options") {
    const ids = (req.options ?? []).map((o) => o.option_id).join(", ");
    return `request ${id} offers options: answer with --option ID (one of ${ids})`;
  }
  if (req.mode === "form") {
    const fields = formFields(req);
    const which = fields.length ? ` (fields: ${fields.join(", ")})` : "";
    return `request ${id} is a form: answer with --value JSON, an object${which}`;
  }
  return `request ${id} takes text: answer with --text STRING`;
}
