// Building blocks shared by every resource schema: the registry that names OpenAPI components,
// scalar helpers (dates, integers read from strings) and the enumerations of http-api.md.
import { z } from "zod";
import { RUN_STATUSES, TASK_STATUSES } from "../../engine/index.ts";
import { MAX_LINE_LENGTH, MAX_NAME_LENGTH, MAX_TEXT_LENGTH } from "../limits.ts";

export interface SchemaMeta {
  id?: string;
  description?: string;
  [key: string]: unknown;
}

/**
 * Our own registry rather than zod's global one, so /openapi.json lists exactly the schemas of
 * this API and nothing a dependency happened to register.
 */
export const apiRegistry = z.registry<SchemaMeta>();

/** Registers `schema` as the OpenAPI component `id` and answers it unchanged. */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  apiRegistry.add(schema, description === undefined ? { id } : { id, description });
  return schema;
}

/**
 * Attaches a description in our registry. zod's `.describe()` writes to its global registry,
 * which the OpenAPI generator does not read.
 */
export function doc<T extends z.ZodType>(schema: T, description: string): T {
  apiRegistry.add(schema, { description });
  return schema;
}

/** ISO-8601 timestamp; the service renders epoch milliseconds with `toISOString()`. */
export const isoDate = () => z.iso.datetime({ offset: true });

export const int = () => z.int();

// Checked by a refinement, not `format`, so the schema keeps to the keywords the API's request
// schemas use elsewhere (the fuzzer generates from them).
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

/** An instant given as an ISO-8601 date-time with an offset (2026-11-01T00:00:00Z). */
export const isoInstantInput = () =>
  z
    .string()
    .max(64)
    .refine((t) => ISO_INSTANT.test(t) && !Number.isNaN(Date.parse(t)), {
      message: "Expected an ISO-8601 date-time with an offset (2026-11-01T00:00:00Z).",
    });

/** Any JSON value, not required to be present. */
export const anyJson = () => z.unknown().optional();

// Input text is bounded (limits.ts): lengths count UTF-16 code units, as JavaScript does.
// Only request schemas use these: a response schema bounded now would refuse to serve a value
// stored before the bound existed.

/** An identifier sent by a client: a workflow, node, pool, action or option name, a run id. */
export const nameInput = () => z.string().max(MAX_NAME_LENGTH);

/** One line of text sent by a client (a run title). */
export const lineInput = () => z.string().max(MAX_LINE_LENGTH);

/** Free text sent by a client (a description, a prompt). */
export const textInput = () => z.string().max(MAX_TEXT_LENGTH);

/** A JSON object with free-form members. */
export const jsonObject = () => z.record(z.string(), z.unknown());

/**
 * An integer carried in a path or query string. Only plain decimal digits are converted, so
 * "", "1e3" and "0x10" are refused instead of silently becoming numbers.
 */
export const intString = (inner: z.ZodInt = z.int()) =>
  z.preprocess((v) => (typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v), inner);

/**
 * A float literal as a client's language prints one: `5`, `0.5`, `.5`, `+1`, `1e-05`, `1E3`
 * (Python's `str(float)` and JSON both use exponents). Hex, "", "inf" and "NaN" stay refused.
 */
const FLOAT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/** A number carried in a query string; a finite value, so a caller may clamp it. */
export const numberString = () =>
  z.preprocess((v) => (typeof v === "string" && FLOAT.test(v) ? Number(v) : v), z.number());

const TRUE = new Set(["true", "1", "yes", "on"]);
const FALSE = new Set(["false", "0", "no", "off"]);

/** A boolean carried in a query string: true/false, 1/0, yes/no, on/off. */
export const boolString = () =>
  z.preprocess((v) => {
    if (typeof v !== "string") return v;
    const word = v.trim().toLowerCase();
    return TRUE.has(word) ? true : FALSE.has(word) ? false : v;
  }, z.boolean());

export const RunStatus = named("RunStatus", z.enum(RUN_STATUSES));
export type RunStatus = z.infer<typeof RunStatus>;
export const TaskStatus = named("TaskStatus", z.enum(TASK_STATUSES));
export type TaskStatus = z.infer<typeof TaskStatus>;
export const NodeState = named(
  "NodeState",
  z.enum(["in_progress", "waiting", "ready", "dead_letter", "failed", "done", "cancelled", "idle"]),
  "Derived from the node's tasks; listed in precedence order, highest first.",
);
export const EdgeKind = named("EdgeKind", z.enum(["forward", "back", "join"]));
export const LogAuthor = named("LogAuthor", z.enum(["agent", "engine", "user"]));
export const LogKind = named("LogKind", z.enum(["deliverable", "note", "stats", "failure"]));
export const RequestKind = named("RequestKind", z.enum(["permission", "elicitation", "question"]));
export const RequestMode = named("RequestMode", z.enum(["options", "form", "text"]));
export type RequestMode = z.infer<typeof RequestMode>;
export const RequestSource = named("RequestSource", z.enum(["agent", "node"]));
export const AnswerAuthor = named("AnswerAuthor", z.enum(["user", "engine"]));
export const ChunkKind = named(
  "ChunkKind",
  z.enum(["text", "thought", "tool_call", "tool_result", "notice"]),
);
export const PanelKind = named(
  "PanelKind",
  z.enum(["markdown", "kv", "table", "log", "chart", "dashboard", "form", "custom"]),
);
export const Slot = named("Slot", z.enum(["run", "task", "node", "workflow", "global"]));
export const Placement = named("Placement", z.enum(["pane", "card"]));
export const AuthMode = named("AuthMode", z.enum(["off", "token"]));
