// The shape of `yardmaster.toml` as written by a user (typescript.md section 5). Every table
// is strict: a misspelt key must stop the server at start, not be silently ignored.
// Each field carries one sentence saying what it expects; config-error.ts adds the key path
// and the value found, so a message reads `pools.default.capacity: expected a positive
// integer, got "four"`.
import { z } from "zod";

/** A strict table whose unknown-key message lists the keys it does know. */
function table<T extends z.ZodRawShape>(shape: T) {
  const known = Object.keys(shape).join(", ");
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown key (known keys: ${known})`
        : "expected a table",
  });
}

function integer(what: string, accept: (n: number) => boolean) {
  return z.number({ error: what }).refine((n) => Number.isInteger(n) && accept(n), { error: what });
}

const positiveInt = integer("expected a positive integer", (n) => n > 0);
const nonNegativeInt = integer("expected an integer >= 0", (n) => n >= 0);
const text = (what: string) => z.string({ error: what }).min(1, { error: what });

const seconds = z
  .number({ error: "expected a number of seconds > 0" })
  .positive({ error: "expected a number of seconds > 0" });
/** A server timer: Node's timers hold at most about 24 days, a day is plenty. */
const timerSeconds = seconds.max(86_400, { error: "expected at most 86400 seconds (one day)" });

/** `"30d"`: a whole number of seconds (s), minutes (m), hours (h) or days (d). */
export const DURATION_TEXT = /^([1-9][0-9]*)(s|m|h|d)$/;
const DURATION_ERROR = 'expected a duration such as "30d", "12h", "90m" or "3600s"';
const duration = z
  .string({ error: DURATION_ERROR })
  .regex(DURATION_TEXT, { error: DURATION_ERROR });

const STORE_URL = /^(sqlite:.+|postgres(ql)?:\/\/.+)$/;
const storeUrl = z
  .string({ error: "expected a store URL (sqlite:PATH or postgres://...)" })
  .regex(STORE_URL, { error: "expected a store URL (sqlite:PATH or postgres://...)" });

const httpUrl = z
  .string({ error: "expected an http(s) URL" })
  .refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), {
    error: "expected an http(s) URL",
  });

export const serverSection = table({
  host: text("expected a host name or address"),
  port: integer("expected a port number (0-65535)", (n) => n >= 0 && n <= 65535),
  require_token: z.boolean({ error: "expected true or false" }),
  store: storeUrl,
  public_url: httpUrl,
  body_limit: positiveInt,
  sse_replay_cap: positiveInt,
  token_file: text("expected a file path"),
  workflow_roots: z.array(text("expected a folder path"), {
    error: 'expected an array of folders such as ["workflows"]',
  }),
  header_timeout: timerSeconds,
  request_timeout: timerSeconds,
  keep_alive_timeout: timerSeconds,
  max_connections: positiveInt,
  max_event_streams: positiveInt,
  idempotency_window: seconds.max(2_592_000, {
    error: "expected at most 2592000 seconds (30 days)",
  }),
  retain: duration,
  lease: seconds
    .min(0.3, { error: "expected at least 0.3 seconds" })
    .max(600, { error: "expected at most 600 seconds" }),
}).partial();

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export const LOG_FORMATS = ["auto", "json", "pretty"] as const;

export const logSection = table({
  level: z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(", ")}` }),
  format: z.enum(LOG_FORMATS, { error: `expected one of ${LOG_FORMATS.join(", ")}` }),
}).partial();

/** `backoff = { initial = 1, factor = 2, max = 300, jitter = true }` (authoring.md). */
const backoffTable = table({
  initial: seconds,
  factor: z.number({ error: "expected a number >= 1" }).min(1, { error: "expected a number >= 1" }),
  max: seconds,
  jitter: z.boolean({ error: "expected true or false" }),
})
  .partial({ factor: true, max: true, jitter: true })
  .refine((b) => b.max === undefined || b.max >= b.initial, {
    error: "expected max >= initial",
  });

export const defaultsSection = table({
  retries: nonNegativeInt,
  priority: integer("expected an integer", () => true),
  backoff: backoffTable,
}).partial();

export const poolRow = table({ capacity: positiveInt });

export const workflowRow = table({
  target: text('expected a target string such as "workflows/triage.ts:triage"'),
  pool: text("expected a pool name").optional(),
});

export const scheduleRow = table({
  workflow: text("expected a workflow name"),
  cron: text('expected a cron expression such as "0 3 * * *" (or six fields, seconds first)'),
  timezone: text('expected an IANA time zone such as "Europe/Paris"').optional(),
  title: text("expected the title of the runs it submits"),
  input: z.unknown().optional(),
  enabled: z.boolean({ error: "expected true or false" }).optional(),
  catchup: z.enum(["once", "skip"], { error: 'expected "once" or "skip"' }).optional(),
});

export const agentRow = table({
  command: z
    .array(text("expected a non-empty string"), {
      error: 'expected an array such as ["node", "agent.mjs"]',
    })
    .min(1, { error: "expected a non-empty array: the program, then its arguments" }),
  args: z
    .array(z.string({ error: "expected a string" }), { error: "expected an array" })
    .optional(),
  env: z
    .record(z.string(), z.string({ error: "expected a string" }), { error: "expected a table" })
    .optional(),
  cwd: text("expected a folder path").optional(),
  timeout: seconds.optional(),
});

/** `[operators.<name>]`: a named operator and the file holding its token. */
export const operatorRow = table({ token_file: text("expected a file path") });

const rows = <T extends z.ZodType>(row: T) =>
  z.record(z.string(), row, { error: "expected a table of named rows" });

export const configFileSchema = table({
  server: serverSection.optional(),
  log: logSection.optional(),
  defaults: defaultsSection.optional(),
  pools: rows(poolRow).optional(),
  workflows: rows(workflowRow).optional(),
  agents: rows(agentRow).optional(),
  schedules: rows(scheduleRow).optional(),
  operators: rows(operatorRow).optional(),
});

export type ConfigFile = z.infer<typeof configFileSchema>;
