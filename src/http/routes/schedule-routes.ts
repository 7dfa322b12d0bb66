// /api/schedules: schedules (cron in a time zone submitting runs of a workflow), with their
// next and last fire; create, change (a configured one: `enabled` only), delete.
import { z } from "zod";
import type { OperatorService } from "../../service/api.ts";
import {
  NewSchedule,
  Ok,
  ScheduleOut,
  SchedulePatch,
  SchedulePath,
} from "../../service/schemas/index.ts";
import { OPERATOR, refusals, type ZodApp } from "./route-kit.ts";

const tags = ["schedules"];

export function registerScheduleRoutes(app: ZodApp, service: OperatorService): void {
  app.get(
    "/api/schedules",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "listSchedules",
        summary: "Schedules by name, with their next and last fire",
        response: { 200: z.array(ScheduleOut), ...refusals(401) },
      },
    },
    () => service.listSchedules(),
  );
  app.get(
    "/api/schedules/:name",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "getSchedule",
        summary: "One schedule",
        params: SchedulePath,
        response: { 200: ScheduleOut, ...refusals(401, 404) },
      },
    },
    (request) => service.getSchedule(request.params.name),
  );
  app.post(
    "/api/schedules",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "createSchedule",
        summary: "Create a schedule",
        description:
          "A cron expression the parser cannot read, or an unknown time zone, is 422 `validation` with the parser's message; an unregistered workflow is 404 `unknown_workflow` (as a submit); a name taken is 409 `conflict`.",
        body: NewSchedule,
        response: { 201: ScheduleOut, ...refusals(401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const created = await service.createSchedule(request.body);
      return reply.code(201).send(created);
    },
  );
  app.patch(
    "/api/schedules/:name",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "updateSchedule",
        summary: "Change a schedule (enable or disable it, its cron, title or input)",
        description:
          "A schedule of the configuration (`source: config`) takes `enabled` only: any other field is 409 `conflict`.",
        params: SchedulePath,
        body: SchedulePatch,
        response: { 200: ScheduleOut, ...refusals(401, 404, 409, 422) },
      },
    },
    (request) => service.updateSchedule(request.params.name, request.body),
  );
  app.delete(
    "/api/schedules/:name",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "deleteSchedule",
        summary: "Delete a schedule created over the API, and its fires",
        params: SchedulePath,
        response: { 200: Ok, ...refusals(401, 404, 409) },
      },
    },
    (request) => service.deleteSchedule(request.params.name),
  );
}
