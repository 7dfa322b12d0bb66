// Spans with a real OpenTelemetry SDK registered in the process (in-memory exporter, the
// AsyncLocalStorage context manager an SDK setup installs): the request that submits a run, the
// run (its own trace, linked to that request), each attempt under its run, and a span the body
// makes under its attempt; attributes name run, task, workflow, node and outcome.
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { eventually } from "../support/wait.ts";

const TRACED = new URL("../fixtures/workflows/traced.ts", import.meta.url).pathname;
const exporter = new InMemorySpanExporter();
let server: TestServer;

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  trace.setGlobalTracerProvider(provider);
  server = await startTestServer(`[server]
host = "127.0.0.1"
port = 0
[pools.default]
capacity = 2
[workflows.traced]
target = "${TRACED}:traced"
`);
});
afterAll(async () => {
  await server?.close();
  trace.disable();
  context.disable();
});

/** Submits a run, waits for it to end, answers its id and the spans of its trace. */
async function traceOf(title: string, status: string) {
  const res = await server.call("POST", "/api/workflows/traced/runs", { title });
  const runId: string = res.body.run_id;
  const run = await eventually(
    async () =>
      exporter
        .getFinishedSpans()
        .find((s) => s.attributes["yardmaster.run.id"] === runId && s.name === "run traced"),
    `the span of run ${runId}`,
  );
  expect(run.attributes["yardmaster.run.status"]).toBe(status);
  const spans = exporter
    .getFinishedSpans()
    .filter((s) => s.spanContext().traceId === run.spanContext().traceId);
  return { runId, run, spans };
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);

describe("traces of a run", () => {
  it("makes a run span, attempt spans under it, and the body's spans under its attempt", async () => {
    const { runId, run, spans } = await traceOf("hello", "completed");
    expect(parentOf(run)).toBeUndefined();
    expect(run.attributes).toMatchObject({
      "yardmaster.run.id": runId,
      "yardmaster.workflow": "traced",
    });
    // Linked to the request that submitted it, which has a trace of its own.
    const request = exporter
      .getFinishedSpans()
      .find((s) => s.name === "POST /api/workflows/:name/runs");
    expect(request?.kind).toBe(SpanKind.SERVER);
    expect(request?.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/api/workflows/:name/runs",
      "url.path": "/api/workflows/traced/runs",
      "http.response.status_code": 201,
    });
    expect(run.links.map((l) => l.context.spanId)).toEqual([request!.spanContext().spanId]);

    const [outer] = named(spans, "attempt traced.outer");
    const [inner] = named(spans, "attempt traced.inner");
    for (const [attempt, node] of [
      [outer, "outer"],
      [inner, "inner"],
    ] as const) {
      expect(parentOf(attempt)).toBe(run.spanContext().spanId);
      expect(attempt.attributes).toMatchObject({
        "yardmaster.run.id": runId,
        "yardmaster.task.id": expect.any(Number),
        "yardmaster.workflow": "traced",
        "yardmaster.node": node,
        "yardmaster.attempt": 1,
        "yardmaster.pool": "default",
        "yardmaster.attempt.outcome": "done",
      });
    }
    const [work] = named(spans, "outer work");
    expect(parentOf(work)).toBe(outer.spanContext().spanId);
  });

  it("marks a dead-lettered attempt and its failed run as errors", async () => {
    const { run, spans } = await traceOf("fail", "failed");
    expect(run.status.code).toBe(SpanStatusCode.ERROR);
    const [inner] = named(spans, "attempt traced.inner");
    expect(inner.attributes["yardmaster.attempt.outcome"]).toBe("dead_letter");
    expect(inner.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: "NonRetryable: asked to fail",
    });
  });
});
