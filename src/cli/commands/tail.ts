// `yardmaster tail [--run ID] [--names GLOBS] [--after ID]`: the live event stream, one line per
// event (or, with --json, one envelope per line), until SIGINT. A dropped connection is
// resumed from the last event seen, so the output has no gap.
import { EXIT_OK } from "../cli-io.ts";
import { interruptSignal } from "../client/client-io.ts";
import type { ClientContext } from "../client/command-kit.ts";
import { clientCommand } from "../client/command-kit.ts";
import { EventFollower } from "../client/event-follow.ts";
import { parseEnvelope, type SseMessage } from "../client/sse-parser.ts";
import { eventLine } from "../format/event-line.ts";
import { type ParsedArgs, stringOption, UsageError } from "../parse-args.ts";

const RESYNC_NOTICE =
  "resync: the server skipped events (replay cap or a slow reader); refetch what you rely on";

export const run = clientCommand("tail", {
  options: { run: "string", names: "string", after: "string" },
  async run(ctx) {
    const { client, parsed, io } = ctx;
    const runId = stringOption(parsed, "run");
    // The stream filters by run id without knowing runs, so an unknown id would wait for ever in
    // silence: ask for the run first, and let its 404 end the command.
    if (runId !== undefined) await client.get("/api/runs/{run_id}", { params: { run_id: runId } });
    const interrupt = interruptSignal(io);
    const follower = new EventFollower(client, {
      query: {
        run: runId,
        names: stringOption(parsed, "names"),
        after: afterOption(parsed),
      },
      signal: interrupt.signal,
      onMessage: (message) => void printMessage(ctx, message),
      onNotice: (line) => io.err(`yardmaster tail: ${line}`),
    });
    try {
      await follower.follow();
    } finally {
      interrupt.dispose();
    }
    return EXIT_OK;
  },
});

function printMessage({ io, json, style }: ClientContext, message: SseMessage): void {
  if (message.event === "resync") {
    if (json) io.err(`yardmaster tail: ${RESYNC_NOTICE}`);
    else io.out(style.yellow(`-- ${RESYNC_NOTICE}`));
    return;
  }
  // The stream's data is already one envelope of compact JSON: print it untouched.
  if (json) {
    io.out(message.data);
    return;
  }
  const envelope = parseEnvelope(message);
  if (envelope) io.out(eventLine(envelope, style));
}

function afterOption(parsed: ParsedArgs): number | undefined {
  const after = stringOption(parsed, "after");
  if (after === undefined) return undefined;
  if (!/^\d+$/.test(after)) throw new UsageError(`--after expects an event id, got ${after}`);
  return Number(after);
}
