// `yardmaster submit WORKFLOW --title T [--description D] [--input JSON] [--idempotency-key K]
// [--wait]`: queue a run and print its id as the last stdout line; with --wait, follow it to its
// end and exit 0 only if it completed. With a key, running the command again answers the run it
// made first. `yardmaster submit WORKFLOW --from-file runs.jsonl` queues one run per line through
// the batch endpoint (submit-batch.ts).
import { EXIT_FAILED, EXIT_OK } from "../cli-io.ts";
import { EXIT_INTERRUPTED, interruptSignal } from "../client/client-io.ts";
import { type ClientContext, clientCommand, printJson } from "../client/command-kit.ts";
import { waitForRun } from "../client/run-waiter.ts";
import { jsonOption, stringOption, UsageError } from "../parse-args.ts";
import { submitFromFile } from "./submit-batch.ts";

export const run = clientCommand("submit", {
  positionals: ["WORKFLOW"],
  options: {
    title: "string",
    description: "string",
    input: "string",
    "idempotency-key": "string",
    wait: "boolean",
    "from-file": "string",
  },
  async run(ctx) {
    const { client, args, parsed, io, json } = ctx;
    const file = stringOption(parsed, "from-file");
    if (file !== undefined) return submitFromFile(ctx, file);
    const title = stringOption(parsed, "title");
    if (title === undefined) throw new UsageError("missing --title T");
    if (title === "") throw new UsageError("--title T must not be empty");
    const description = stringOption(parsed, "description");
    const key = stringOption(parsed, "idempotency-key");
    const input = jsonOption(parsed, "input");
    const { run_id: runId } = await client.post("/api/workflows/{name}/runs", {
      params: { name: args[0] },
      body: {
        title,
        ...(description === undefined ? {} : { description }),
        ...(input === undefined ? {} : { input }),
      },
      headers: key === undefined ? {} : { "idempotency-key": key },
    });
    if (parsed.options.wait !== true) {
      if (json) printJson(io, { run_id: runId });
      else io.out(runId);
      return EXIT_OK;
    }
    return waitAndReport(ctx, runId);
  },
});

async function waitAndReport(ctx: ClientContext, runId: string): Promise<number> {
  const { client, io, json, style } = ctx;
  if (!json) io.err(`Run ${runId} queued; waiting for it to end (Ctrl-C stops waiting).`);
  const interrupt = interruptSignal(io);
  let ending: string;
  try {
    ending = await waitForRun(client, runId, {
      io,
      style,
      progress: !json,
      signal: interrupt.signal,
    });
  } finally {
    interrupt.dispose();
  }
  if (ending === "interrupted") {
    io.err(`yardmaster submit: stopped waiting; run ${runId} goes on`);
    if (!json) io.out(runId);
    return EXIT_INTERRUPTED;
  }
  if (ending === "deleted") {
    io.err(`yardmaster submit: run ${runId} was deleted before it ended`);
    if (!json) io.out(runId);
    return EXIT_FAILED;
  }
  const detail = await client.get("/api/runs/{run_id}", { params: { run_id: runId } });
  if (json) printJson(io, detail);
  else {
    const output = JSON.stringify(detail.output ?? null);
    io.err(`Run ${runId} ${style.status(detail.status)}; output: ${output}`);
    io.out(runId);
  }
  // The event decides: an operator may re-open the run between its end and this read.
  return ending === "completed" ? EXIT_OK : EXIT_FAILED;
}
