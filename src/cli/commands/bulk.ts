// `yardmaster runs delete|cancel|retry [RUN...] [--status S] [--workflow W] [--before ISO]
// [--limit N] [--all]`: one operation in bulk (POST /api/runs/bulk) on the runs named, or on
// those a filter matches; prints what was done and what was refused, and why. With a filter,
// --all asks again while the server answers `more`, from its cursor.

import type { components } from "../../client/openapi.ts";
import { EXIT_FAILED, EXIT_OK } from "../cli-io.ts";
import { clientCommand, printJson } from "../client/command-kit.ts";
import { type ParsedArgs, stringOption, UsageError } from "../parse-args.ts";

type BulkBody = components["schemas"]["BulkRuns"];
type BulkOut = components["schemas"]["BulkOut"];

const ACTIONS = { delete: "delete", cancel: "cancel", retry: "retry_failed" } as const;
type BulkVerb = keyof typeof ACTIONS;
const PAST: Record<BulkVerb, string> = {
  delete: "Deleted",
  cancel: "Cancelled",
  retry: "Retried the failed attempts of",
};

export const isBulkVerb = (verb: string): verb is BulkVerb => Object.hasOwn(ACTIONS, verb);

function filterOf(parsed: ParsedArgs): BulkBody["filter"] | undefined {
  const status = stringOption(parsed, "status") as NonNullable<BulkBody["filter"]>["status"];
  const workflow = stringOption(parsed, "workflow");
  const before = stringOption(parsed, "before");
  if (status === undefined && workflow === undefined && before === undefined) return undefined;
  // A date alone is read as midnight UTC; the server judges the rest (its 422 names the field).
  const instant =
    before !== undefined && /^\d{4}-\d\d-\d\d$/.test(before) ? `${before}T00:00:00Z` : before;
  return { status, workflow, before: instant };
}

export function bulkCommand(verb: BulkVerb) {
  return clientCommand(`runs ${verb}`, {
    variadic: true,
    options: {
      status: "string",
      workflow: "string",
      before: "string",
      limit: "string",
      all: "boolean",
    },
    async run({ client, args, parsed, io, json }) {
      const filter = filterOf(parsed);
      if (args.length > 0 === (filter !== undefined)) {
        throw new UsageError(
          `runs ${verb} takes RUN ids or a filter (--status, --workflow, --before), not both or neither`,
        );
      }
      const limitText = stringOption(parsed, "limit");
      if (limitText !== undefined && !/^\d+$/.test(limitText)) {
        throw new UsageError("option --limit expects a number of runs");
      }
      const all = parsed.options.all === true;
      const body: BulkBody = { action: ACTIONS[verb] };
      if (filter) body.filter = filter;
      else body.run_ids = args;
      if (limitText !== undefined) body.limit = Number(limitText);
      const answers: BulkOut[] = [];
      for (;;) {
        const out = await client.post("/api/runs/bulk", { body });
        answers.push(out);
        if (!all || !out.more || out.next_cursor === null) break;
        body.cursor = out.next_cursor;
      }
      const done = answers.flatMap((a) => a.done_run_ids);
      const refused = answers.flatMap((a) => a.refused);
      const more = answers.at(-1)!.more;
      if (json) {
        printJson(io, { ...answers.at(-1)!, done: done.length, done_run_ids: done, refused });
      } else {
        io.out(
          `${PAST[verb]} ${done.length} run${done.length === 1 ? "" : "s"}; refused ${refused.length}.`,
        );
        for (const r of refused) io.out(`  ${r.run_id}: ${r.code}: ${r.message}`);
        if (more) io.out("More runs match: run it again, or add --all.");
      }
      return refused.length ? EXIT_FAILED : EXIT_OK;
    },
  });
}
