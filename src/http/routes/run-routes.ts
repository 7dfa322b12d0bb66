// /api/runs and /api/workflows/{name}/runs: submit, list, read, edit and steer runs.
import { z } from "zod";
import type { OperatorService } from "../../service/api.ts";
import { validation } from "../../service/errors.ts";
import {
  BulkOut,
  BulkRuns,
  Created,
  EditRun,
  NewRun,
  NewRuns,
  Ok,
  Position,
  PositionOut,
  Rerun,
  RunCounts,
  RunDetail,
  RunPath,
  RunSummary,
  RunsQuery,
  SubmitHeaders,
  TaskRef,
  WorkflowPath,
} from "../../service/schemas/index.ts";
import { operatorOf } from "../auth-hook.ts";
import { OPERATOR, refusals, trusted, trustedOk, type ZodApp } from "./route-kit.ts";

const tags = ["runs"];

/** The cursor of the run list's next page (docs/http.md, "Paging the run list"). */
export const NEXT_CURSOR_HEADER = "X-Service-Next-Cursor";

/** The request's own path and query, its cursor replaced: the `Link` rel="next" target. */
function nextLink(url: string, cursor: string): string {
  const parsed = new URL(url, "http://x");
  parsed.searchParams.set("cursor", cursor);
  return `${parsed.pathname}${parsed.search}`;
}

export function registerRunRoutes(app: ZodApp, service: OperatorService): void {
  app.post(
    "/api/workflows/:name/runs",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "submitRun",
        summary: "Queue a run of a workflow",
        description:
          "With an `Idempotency-Key` header, a retry within the idempotency window answers the run the key created first: status 200 and the header `Idempotent-Replayed: true`.",
        params: WorkflowPath,
        headers: SubmitHeaders,
        body: NewRun,
        response: { 201: Created, 200: Created, ...refusals(401, 404, 409, 422) },
      },
      // The answer is `{ run_id }` of the id the engine made: not checked per request.
      serializerCompiler: trusted(201, 200),
    },
    async (request, reply) => {
      const key = request.headers["idempotency-key"];
      if (key === undefined) {
        const created = await service.submitRun(
          request.params.name,
          request.body,
          operatorOf(request),
        );
        return reply.code(201).send(created);
      }
      const { created, replayed } = await service.submitRunOnce(
        request.params.name,
        request.body,
        key,
        operatorOf(request),
      );
      if (replayed) return reply.code(200).header("idempotent-replayed", "true").send(created);
      return reply.code(201).send(created);
    },
  );
  app.post(
    "/api/workflows/:name/runs/batch",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "submitRuns",
        summary: "Queue several runs of a workflow at once",
        description:
          "Queues every run of the array, in order, in one transaction: all are created, or none when any item is refused (422, each issue's `loc` naming its item's index). Answers the created runs in the array's order. An `Idempotency-Key` header is refused (422): a batch is not deduplicated.",
        params: WorkflowPath,
        body: NewRuns,
        response: { 201: z.array(Created), ...refusals(401, 404, 422) },
      },
      // An array of `{ run_id }` of the ids the engine made: not checked item by item.
      serializerCompiler: trusted(201),
    },
    async (request, reply) => {
      // A client that sends a key expects a retry not to queue the batch twice: say it will.
      if (request.headers["idempotency-key"] !== undefined) {
        throw validation(
          "Idempotency-Key is not supported on a batch submit; nothing was queued.",
          [
            {
              loc: ["header", "idempotency-key"],
              msg: "not supported on POST /api/workflows/{name}/runs/batch",
              type: "unsupported",
            },
          ],
        );
      }
      const created = await service.submitRuns(
        request.params.name,
        request.body,
        operatorOf(request),
      );
      return reply.code(201).send(created);
    },
  );
  app.get(
    "/api/runs",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "listRuns",
        summary: "Every run, in dispatch order (optionally a page of it)",
        description:
          'Without `limit` the whole list. With `limit`, a page; when more runs follow, the `X-Service-Next-Cursor` header carries the cursor of the next page and `Link` names it with rel="next".',
        querystring: RunsQuery,
        response: { 200: z.array(RunSummary), ...refusals(401, 422) },
      },
      // The whole list, unpaged, is the largest answer the API gives (2 MiB at 10,000 runs) and
      // validating it element by element took a third of its time. It is built by one typed
      // view (`runSummary`), which the tests hold to the schema; refusals keep the checked path.
      serializerCompiler: trustedOk,
    },
    async (request, reply) => {
      const page = await service.listRunsPage(request.query);
      if (page.next_cursor !== null) {
        reply.header(NEXT_CURSOR_HEADER, page.next_cursor);
        reply.header("link", `<${nextLink(request.url, page.next_cursor)}>; rel="next"`);
      }
      return page.runs;
    },
  );
  app.post(
    "/api/runs/bulk",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "bulkRuns",
        summary: "Cancel, delete or retry the failed attempts of many runs in one request",
        description:
          'By `run_ids` or by `filter` (oldest first, at most `limit` runs: `more` and `next_cursor` say when to ask again). Each run is done as its single operation would do it, with the same events; what that operation would refuse is answered in `refused`, per run, and the rest is done (docs/http.md, "Operations in bulk").',
        body: BulkRuns,
        response: { 200: BulkOut, ...refusals(401, 422) },
      },
    },
    (request) => service.bulkRuns(request.body, operatorOf(request)),
  );
  app.get(
    "/api/runs/counts",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "countRuns",
        summary: "Runs per status and per workflow (the navigation's badges)",
        response: { 200: RunCounts, ...refusals(401) },
      },
    },
    () => service.countRuns(),
  );
  app.get(
    "/api/runs/:run_id",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "getRun",
        summary: "One run with its tasks, outputs and totals",
        params: RunPath,
        response: { 200: RunDetail, ...refusals(401, 404) },
      },
    },
    (request) => service.getRun(request.params.run_id),
  );
  app.patch(
    "/api/runs/:run_id",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "editRun",
        summary: "Edit a run's title or description",
        params: RunPath,
        body: EditRun,
        response: { 200: RunDetail, ...refusals(401, 404, 422) },
      },
    },
    (request) => service.editRun(request.params.run_id, request.body, operatorOf(request)),
  );
  app.delete(
    "/api/runs/:run_id",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "deleteRun",
        summary: "Cancel what is outstanding, then remove the run",
        params: RunPath,
        response: { 204: z.undefined(), ...refusals(401, 404) },
      },
    },
    async (request, reply) => {
      await service.deleteRun(request.params.run_id, operatorOf(request));
      return reply.code(204).send();
    },
  );
  registerRunCommands(app, service);
}

type RunCommand = "cancelRun" | "pauseRun" | "resumeRun";

function registerRunCommands(app: ZodApp, service: OperatorService): void {
  const commands: Array<[string, RunCommand, string]> = [
    ["cancel", "cancelRun", "Cancel the run and every outstanding attempt"],
    ["pause", "pauseRun", "Pause a queued or running run"],
    ["resume", "resumeRun", "Resume a paused run"],
  ];
  for (const [verb, method, summary] of commands) {
    app.post(
      `/api/runs/:run_id/${verb}`,
      {
        schema: {
          ...OPERATOR,
          tags,
          operationId: method,
          summary,
          params: RunPath,
          response: { 200: Ok, ...refusals(401, 404, 409) },
        },
      },
      (request) => service[method](request.params.run_id, operatorOf(request)),
    );
  }
  app.post(
    "/api/runs/:run_id/position",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "positionRun",
        summary: "Move the run in the dispatch list",
        params: RunPath,
        body: Position,
        response: { 200: PositionOut, ...refusals(401, 404, 422) },
      },
    },
    (request) => service.positionRun(request.params.run_id, request.body, operatorOf(request)),
  );
  app.post(
    "/api/runs/:run_id/rerun",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "rerun",
        summary: "Enqueue a fresh attempt of a node with the payload it last had",
        params: RunPath,
        body: Rerun,
        response: { 200: TaskRef, ...refusals(401, 404, 409, 422) },
      },
    },
    (request) => service.rerun(request.params.run_id, request.body, operatorOf(request)),
  );
}
