// OpenTelemetry spans for runs and attempts, through `@opentelemetry/api` only: without an SDK
// registered in the process (docs/observability.md) every span is a non-recording no-op and
// nothing is kept. With one:
// - a run is a span of its own trace (`run <workflow>`), from its submission to its end, linked
//   to the request that submitted it. A run this process did not see submitted (it was open
//   when the server started, or re-opened after it ended) gets a span from its first attempt
//   here, marked `yardmaster.run.continued`. Spans of runs still open at shutdown are ended
//   then, marked `yardmaster.run.open_at_stop`, since a span must end in the process that began it;
// - each attempt is a child span (`attempt <workflow>.<node>`), and the body runs inside it, so
//   spans the body makes (an instrumented HTTP call) nest under the attempt.
import {
  type Attributes,
  type Context,
  context,
  type ProxyTracerProvider,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { AttemptFacts, AttemptOutcome, EventRecord } from "../engine/index.ts";
import { isRunEnd } from "./run-names.ts";

export const TRACER_NAME = "yardmaster";

/** How long a stopping server waits for the SDK to export what it still holds. */
const FLUSH_MS = 2000;

/**
 * Asks the SDK (if one is registered) to export the spans it still holds: an SDK exports in
 * batches, and `yardmaster serve` exits as soon as the server has stopped, which would drop the
 * last batch, with the spans of the runs open at the stop. Bounded, so an unreachable collector
 * cannot hold the stop.
 */
export async function flushSpans(): Promise<void> {
  // Asked by shape, not `instanceof`: the SDK registers through its own copy of the API.
  const global = trace.getTracerProvider() as Partial<ProxyTracerProvider>;
  const provider = typeof global.getDelegate === "function" ? global.getDelegate() : global;
  const flush = (provider as { forceFlush?: () => Promise<unknown> }).forceFlush;
  if (typeof flush !== "function") return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((done) => {
    timer = setTimeout(done, FLUSH_MS);
  });
  await Promise.race([flush.call(provider).catch(() => {}), late]);
  clearTimeout(timer);
}

const RUN_STATUS: Record<string, string> = {
  "run.completed": "completed",
  "run.failed": "failed",
  "run.cancelled": "cancelled",
  "run.deleted": "deleted",
};

export class RunTracing {
  readonly #tracer;
  /** Recording spans of the runs open in this process. */
  readonly #runs = new Map<string, Span>();

  constructor(version: string) {
    this.#tracer = trace.getTracer(TRACER_NAME, version);
  }

  /** A committed run event: `run.created` opens the run's span, an end closes it. */
  runEvent(event: EventRecord): void {
    const runId = event.run_id;
    if (runId === null) return;
    if (event.name === "run.created") {
      // Published right after the submit's commit, still inside its request's context.
      const request = trace.getSpan(context.active())?.spanContext();
      this.#openRun(runId, String(event.data.workflow), event.created, {
        links: request ? [{ context: request }] : [],
      });
      return;
    }
    if (!isRunEnd(event.name)) return;
    const span = this.#runs.get(runId);
    if (!span) return;
    this.#runs.delete(runId);
    span.setAttribute("yardmaster.run.status", RUN_STATUS[event.name]);
    if (event.name === "run.failed") {
      span.setStatus({ code: SpanStatusCode.ERROR, message: String(event.data.error) });
    }
    span.end(event.created);
  }

  /** The attempt's span, under its run's, or null when nothing records. */
  startAttempt(attempt: AttemptFacts): { span: Span; context: Context } | null {
    const run =
      this.#runs.get(attempt.runId) ??
      this.#openRun(attempt.runId, attempt.workflow, Date.now(), {
        attributes: { "yardmaster.run.continued": true },
      });
    if (!run) return null;
    const parent = trace.setSpan(ROOT_CONTEXT, run);
    const span = this.#tracer.startSpan(
      `attempt ${attempt.workflow}.${attempt.node}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          "yardmaster.run.id": attempt.runId,
          "yardmaster.task.id": attempt.taskId,
          "yardmaster.workflow": attempt.workflow,
          "yardmaster.node": attempt.node,
          "yardmaster.attempt": attempt.attempt,
          "yardmaster.pool": attempt.pool,
        },
      },
      parent,
    );
    return { span, context: trace.setSpan(parent, span) };
  }

  endAttempt(span: Span, outcome: AttemptOutcome): void {
    span.setAttribute("yardmaster.attempt.outcome", outcome.kind);
    if (outcome.kind === "stopped") span.setAttribute("yardmaster.attempt.stopped", outcome.reason);
    if ("error" in outcome) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
    span.end();
  }

  /** The server is stopping: a span must end in the process that began it, or it is lost. */
  stopping(): void {
    for (const span of this.#runs.values()) {
      span.setAttribute("yardmaster.run.open_at_stop", true);
      span.end();
    }
    this.#runs.clear();
  }

  #openRun(
    runId: string,
    workflow: string,
    startTime: number,
    extra: { links?: { context: ReturnType<Span["spanContext"]> }[]; attributes?: Attributes },
  ): Span | null {
    const span = this.#tracer.startSpan(`run ${workflow}`, {
      root: true,
      startTime,
      links: extra.links,
      attributes: {
        "yardmaster.run.id": runId,
        "yardmaster.workflow": workflow,
        ...extra.attributes,
      },
    });
    if (!span.isRecording()) return null;
    this.#runs.set(runId, span);
    return span;
  }
}
