// `yardmaster answer REQUEST (--option ID | --value JSON | --text STRING)`: records the one
// answer of a request; the waiting task resumes with it.
import { clientCommand, idArgument, printJson } from "../client/command-kit.ts";
import { type ParsedArgs, stringOption, UsageError } from "../parse-args.ts";

export const run = clientCommand("answer", {
  positionals: ["REQUEST"],
  options: { option: "string", value: "string", text: "string" },
  async run({ client, args, parsed, io, json }) {
    const id = idArgument(args[0], "REQUEST");
    const view = await client.post("/api/requests/{request_id}/answer", {
      params: { request_id: id },
      body: answerBody(parsed),
    });
    if (json) return void printJson(io, view);
    io.out(`Request ${id} answered with ${JSON.stringify(view.answer ?? null)}.`);
    return undefined;
  },
});

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
  try {
    return { value: JSON.parse(value as string) };
  } catch {
    throw new UsageError(`--value is not valid JSON: ${value}`);
  }
}
