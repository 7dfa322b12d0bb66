// `yardmaster move-run RUN --index N | --up | --down`: a run's place in the dispatch list.
// --index is zero-based, as the API takes it (0 = first to be claimed); the answer and the
// `runs` table show the 1-based position.
import { clientCommand, printJson } from "../client/command-kit.ts";
import { type ParsedArgs, stringOption, UsageError } from "../parse-args.ts";

export const run = clientCommand("move-run", {
  positionals: ["RUN"],
  options: { index: "string", up: "boolean", down: "boolean" },
  async run({ client, args, parsed, io, json }) {
    const body = positionBody(parsed);
    const out = await client.post("/api/runs/{run_id}/position", {
      params: { run_id: args[0] },
      body,
    });
    if (json) return void printJson(io, out);
    io.out(`Run ${args[0]} is at position ${out.position}.`);
    return undefined;
  },
});

function positionBody(parsed: ParsedArgs): { index: number } | { direction: -1 | 1 } {
  const index = stringOption(parsed, "index");
  const chosen = [index !== undefined, parsed.options.up === true, parsed.options.down === true];
  if (chosen.filter(Boolean).length !== 1) {
    throw new UsageError("give exactly one of --index N, --up, --down");
  }
  if (index !== undefined) {
    // Any integer: the API clamps an index outside the list (a negative one to the top).
    if (!/^-?\d+$/.test(index)) throw new UsageError(`--index expects an integer, got ${index}`);
    return { index: Number(index) };
  }
  return { direction: parsed.options.up === true ? -1 : 1 };
}
