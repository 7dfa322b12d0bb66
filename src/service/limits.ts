// The sizes the service accepts, in one place: the zod schemas (and so /openapi.json) and the
// body parser read them from here, and docs/http.md "Limits" lists them. The bounds the shared
// JSON Schema compiler applies too (nesting, schema size, echoed excerpts) live in
// lib/limits.ts, which needs nothing of the service, and are re-exported here with the rest.
// Each bound is far above what a real client sends and far below what would let one request
// cost the server (or every later reader of a list) more than the body limit already allows.

export { MAX_ECHO_LENGTH, MAX_JSON_DEPTH, MAX_SCHEMA_LENGTH } from "../lib/limits.ts";

/** Identifiers: names of workflows, nodes, pools, actions and options; run ids; kinds. */
export const MAX_NAME_LENGTH = 200;

/** One line of text shown in lists: a run title, an option's label. */
export const MAX_LINE_LENGTH = 1_000;

/** A registration target, `path/to/file.ts:attr` (a path may be as long as the OS allows). */
export const MAX_TARGET_LENGTH = 4_096;

/** Free text: a run description, a request's prompt, a text answer. */
export const MAX_TEXT_LENGTH = 65_536;

/** Most options a request may offer. */
export const MAX_OPTIONS = 100;

/** The event stream's `names` query (its comma-separated globs together). */
export const MAX_EVENT_NAMES_LENGTH = 1_024;

/** The most runs one batch submit queues (`POST /api/workflows/{name}/runs/batch`). */
export const MAX_SUBMIT_BATCH = 1_000;

/** The largest page of the run list (`GET /api/runs?limit=`). */
export const MAX_RUN_PAGE = 1_000;

/** Most runs one operation in bulk acts on (`POST /api/runs/bulk`: `run_ids`, `limit`). */
export const MAX_BULK_RUNS = 1_000;
