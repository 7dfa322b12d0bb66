// `submit --wait`: follow one run's events from its very first (after=0, so nothing that
// happened before the stream opened is missed) until it completes, fails, is cancelled or is
// deleted. A `resync` frame means events were skipped, so the run is read afresh instead.
import type { CliIo } from "../cli-io.ts";
import { answerHint } from "../format/answer-hint.ts";
import { eventLine } from "../format/event-line.ts";
import type { Style } from "../format/style.ts";
import { truncate } from "../format/table.ts";
import type { ApiClient } from "./api-client.ts";
import type { EventName, RunStatus } from "./api-types.ts";
import { EventFollower } from "./event-follow.ts";
import { parseEnvelope, type SseMessage } from "./sse-parser.ts";

type Ending = RunStatus | "deleted";
/** Named by the generated vocabulary: an event renamed in the schema fails to compile here. */
const ENDINGS: Partial<Record<EventName, Ending>> = {
  "run.completed": "completed",
  "run.failed": "failed",
  "run.cancelled": "cancelled",
  "run.deleted": "deleted",
};
const ENDED = new Set<Ending>(["completed", "failed", "cancelled"]);

export interface WaitOptions {
  io: CliIo;
  style: Style;
  /** Print each event on stderr as it arrives. */
  progress: boolean;
  signal: AbortSignal;
}

/** The run's last status ("deleted" when it is gone), or "interrupted" when the signal fired. */
export async function waitForRun(client: ApiClient, runId: string, options: WaitOptions) {
  let ending: Ending | undefined;
  const onMessage = async (message: SseMessage) => {
    if (message.event === "resync") {
      const status = await currentStatus(client, runId, options.signal);
      if (ENDED.has(status) || status === "deleted") ending = status;
    } else {
      const event = parseEnvelope(message);
      if (event && options.progress) {
        options.io.err(eventLine(event, options.style));
        if (event.name === "request.opened") await printAsk(client, event.data, options);
      }
      // A plugin event's name is outside the vocabulary, and ends nothing.
      ending = event && ENDINGS[event.name as EventName];
    }
    return ending === undefined ? undefined : ("stop" as const);
  };
  const follower = new EventFollower(client, {
    query: { run: runId, after: 0 },
    signal: options.signal,
    onMessage,
    onNotice: (line) => options.io.err(`yardmaster submit: ${line}`),
  });
  const how = await follower.follow();
  return how === "interrupted" ? "interrupted" : (ending as Ending);
}

/**
 * Under a `request.opened` line, what the run asks and the command that answers it: the event
 * names only the request, so it is read (a request answered or gone meanwhile prints nothing).
 */
async function printAsk(client: ApiClient, data: Record<string, unknown>, options: WaitOptions) {
  const id = data.request_id;
  if (typeof id !== "number") return;
  const request = await client
    .get("/api/requests/{request_id}", { params: { request_id: id } })
    .catch(() => null);
  if (!request || request.answered_by != null) return;
  options.io.err(`  asks: ${truncate(request.prompt, 200)}`);
  options.io.err(`  answer: yardmaster answer ${id} ${answerHint(request)}`);
}

async function currentStatus(
  client: ApiClient,
  runId: string,
  signal: AbortSignal,
): Promise<Ending> {
  try {
    const res = await client.request("GET", "/api/runs/{run_id}", {
      params: { run_id: runId },
      signal,
    });
    return res.body.status;
  } catch (error) {
    if ((error as { status?: number }).status === 404) return "deleted";
    throw error;
  }
}
