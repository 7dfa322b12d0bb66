// `yardmaster runs [--status S] [--workflow W] [--search Q] [--since T] [--until T]
// [--sort position|created|updated] [--limit N [--cursor C]]`: the dispatch list, in position
// order (or newest first by a time); with --limit one page, and the command for the next one.
// `yardmaster runs delete|cancel|retry ...` acts on many runs at once (bulk.ts).
import type { CliIo } from "../cli-io.ts";
import type { RunStatus, RunSummary } from "../client/api-types.ts";
import { clientCommand, printJson } from "../client/command-kit.ts";
import { parseInstant } from "../format/instant.ts";
import type { Style } from "../format/style.ts";
import { renderTable, truncate } from "../format/table.ts";
import { relativeTime } from "../format/time.ts";
import { stringOption, UsageError } from "../parse-args.ts";
import { bulkCommand, isBulkVerb } from "./bulk.ts";

const SORTS = ["position", "created", "updated"] as const;
type Sort = (typeof SORTS)[number];
/** The server's largest page (GET /api/runs `limit`). */
const MAX_PAGE = 1000;

/** --since/--until as the ISO instant the API takes, or a usage error saying what is accepted. */
function instantOption(parsed: Parameters<typeof stringOption>[0], name: string) {
  const text = stringOption(parsed, name);
  if (text === undefined) return undefined;
  const iso = parseInstant(text);
  if (iso === null) {
    throw new UsageError(
      `option --${name} expects an ISO-8601 date-time with an offset (2026-11-01T09:00:00Z), a date (2026-11-01) or a span back from now (30m, 2h, 3d, 1w), got ${JSON.stringify(text)}`,
    );
  }
  return iso;
}

const list = clientCommand("runs", {
  options: {
    status: "string",
    workflow: "string",
    search: "string",
    limit: "string",
    cursor: "string",
    since: "string",
    until: "string",
    sort: "string",
  },
  async run({ client, parsed, io, json, style }) {
    const limitText = stringOption(parsed, "limit");
    const limitOk = limitText === undefined || /^\d+$/.test(limitText);
    if (!limitOk || Number(limitText) < 1 || Number(limitText) > MAX_PAGE) {
      throw new UsageError(
        `option --limit expects a number of runs from 1 to ${MAX_PAGE}, got ${JSON.stringify(limitText)}`,
      );
    }
    const sort = stringOption(parsed, "sort");
    if (sort !== undefined && !SORTS.includes(sort as Sort)) {
      throw new UsageError(
        `option --sort expects one of ${SORTS.join(", ")}, got ${JSON.stringify(sort)}`,
      );
    }
    const workflow = stringOption(parsed, "workflow");
    const since = instantOption(parsed, "since");
    const until = instantOption(parsed, "until");
    const { body: runs, headers } = await client.request("GET", "/api/runs", {
      query: {
        // As typed: the server judges an unknown status (its 422 names the field).
        status: stringOption(parsed, "status") as RunStatus | undefined,
        workflow,
        q: stringOption(parsed, "search"),
        created_after: since,
        created_before: until,
        sort: sort as Sort | undefined,
        limit: limitText === undefined ? undefined : Number(limitText),
        cursor: stringOption(parsed, "cursor"),
      },
    });
    // The list filters by name without knowing workflows, so a mistyped name would read as "no
    // runs": when nothing matched, a name no workflow has ends with its 404 (exit 1). A removed
    // workflow whose runs remain still lists them.
    if (runs.length === 0 && workflow !== undefined) {
      await client.get("/api/workflows/{name}", { params: { name: workflow } });
    }
    const next = headers.get("x-service-next-cursor");
    if (json) return void printJson(io, runs);
    if (runs.length === 0) return void io.out("No runs.");
    for (const line of runsTable(runs, style)) io.out(line);
    if (next !== null)
      io.out(`More: yardmaster runs ${nextArgs(parsed, next, { since, until }).join(" ")}`);
    return undefined;
  },
});

/** `runs delete|cancel|retry` act on many runs (bulk.ts); otherwise `runs` lists them. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const verb = argv[0];
  if (verb !== undefined && isBulkVerb(verb)) return bulkCommand(verb)(argv.slice(1), io);
  return list(argv, io);
}

/**
 * The same filters and page size, from the next cursor (shell-quoted where needed). A span
 * (`--since 2h`) is repeated as the instant it named, so every page asks for the same range.
 */
function nextArgs(
  parsed: Parameters<typeof stringOption>[0],
  cursor: string,
  resolved: Record<string, string | undefined>,
): string[] {
  const args: string[] = [];
  for (const name of ["status", "workflow", "search", "since", "until", "sort", "limit"]) {
    const value = resolved[name] ?? stringOption(parsed, name);
    if (value === undefined) continue;
    args.push(
      `--${name}`,
      /^[\w.:/@-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`,
    );
  }
  return [...args, "--cursor", cursor];
}

export function runsTable(runs: RunSummary[], style: Style, now = Date.now()): string[] {
  const rows = runs.map((r) => [
    String(r.position),
    r.id,
    style.status(r.status),
    r.unregistered ? `${r.workflow} ${style.yellow("(unregistered)")}` : r.workflow,
    truncate(r.title, 40),
    (r.current_nodes ?? []).join(",") || "-",
    r.pending_requests ? style.yellow(String(r.pending_requests)) : "-",
    relativeTime(r.updated, now),
  ]);
  return renderTable(
    [
      { header: "POS", align: "right" },
      { header: "RUN" },
      { header: "STATUS" },
      { header: "WORKFLOW" },
      { header: "TITLE" },
      { header: "NODES" },
      { header: "ASKS", align: "right" },
      { header: "UPDATED" },
    ],
    rows,
  );
}
