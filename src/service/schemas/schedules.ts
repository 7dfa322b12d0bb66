// Schedules: a cron expression in a time zone that submits runs of a workflow.
import { z } from "zod";
import { anyJson, doc, isoDate, lineInput, named, nameInput } from "./common.ts";

const Catchup = named(
  "ScheduleCatchup",
  z.enum(["once", "skip"]),
  "What a start does with due moments missed while no server ran: fire the latest once, or skip them.",
);

export const ScheduleOut = named(
  "ScheduleOut",
  z.object({
    name: z.string(),
    workflow: z.string(),
    cron: doc(z.string(), "Five fields, or six with seconds first."),
    timezone: doc(z.string(), "IANA time zone the cron expression is read in."),
    title: z.string(),
    input: anyJson(),
    enabled: z.boolean(),
    catchup: Catchup,
    source: doc(
      z.enum(["config", "api"]),
      "`config`: a `[schedules.<name>]` row of the configuration (only `enabled` can be changed over the API); `api`: created over the API.",
    ),
    next_fire: doc(isoDate().nullable(), "The next due moment; null when disabled or none."),
    last_fire: doc(isoDate().nullable(), "The due moment of the latest fire; null when none."),
    last_run_id: doc(z.string().nullable(), "The run the latest fire submitted."),
  }),
);
export type ScheduleOut = z.infer<typeof ScheduleOut>;

export const NewSchedule = named(
  "NewSchedule",
  z.object({
    name: nameInput().min(1),
    workflow: nameInput().min(1),
    cron: lineInput().min(1),
    timezone: lineInput().min(1).default("UTC"),
    title: lineInput().min(1),
    input: anyJson(),
    enabled: z.boolean().default(true),
    catchup: Catchup.default("once"),
  }),
);
export type NewSchedule = z.input<typeof NewSchedule>;

export const SchedulePatch = named(
  "SchedulePatch",
  z.object({
    enabled: z.boolean().optional(),
    cron: lineInput().min(1).optional(),
    timezone: lineInput().min(1).optional(),
    title: lineInput().min(1).optional(),
    input: anyJson(),
    catchup: Catchup.optional(),
  }),
);
export type SchedulePatch = z.infer<typeof SchedulePatch>;

export const SchedulePath = z.object({ name: nameInput().min(1) });
