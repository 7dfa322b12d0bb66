// `yardmaster submit WORKFLOW --from-file runs.jsonl`: one NewRun per line (JSON; blank lines
// skipped), read and checked whole before anything is sent, then sent in batches of at most the
// server's batch size. Each batch is all or nothing on the server; a refused batch stops the
// command, which says which lines were queued before it, so the rest can be sent again.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { ApiRefusal } from "../../client/api-refusal.ts";
import { EXIT_OK } from "../cli-io.ts";
import { type ClientContext, printJson } from "../client/command-kit.ts";
import { UsageError } from "../parse-args.ts";

/** The server's largest batch (http.md "Batch submit"). */
export const BATCH_SIZE = 1_000;

interface Line {
  /** 1-based line number in the file. */
  line: number;
  run: Record<string, unknown>;
}

/** The file's runs with their line numbers; a line that is not a JSON object is a usage error. */
export function readRunLines(text: string, file: string): Line[] {
  const lines: Line[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      throw new UsageError(`${file}:${index + 1}: not JSON (${(err as Error).message})`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new UsageError(`${file}:${index + 1}: expected a JSON object {"title": ...}`);
    }
    lines.push({ line: index + 1, run: value as Record<string, unknown> });
  });
  if (lines.length === 0) throw new UsageError(`${file}: no runs (one JSON object per line)`);
  return lines;
}

const CONFLICTING = ["title", "description", "input", "idempotency-key", "wait"];

export async function submitFromFile(ctx: ClientContext, file: string): Promise<number> {
  const { client, args, parsed, io, json } = ctx;
  const given = CONFLICTING.filter((name) => parsed.options[name] !== undefined);
  if (given.length) {
    throw new UsageError(`--from-file takes each run from the file: drop --${given.join(", --")}`);
  }
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), "utf8");
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? err}`);
  }
  const lines = readRunLines(text, file);
  const created: Array<{ run_id: string }> = [];
  for (let start = 0; start < lines.length; start += BATCH_SIZE) {
    const batch = lines.slice(start, start + BATCH_SIZE);
    try {
      const answer = await client.post("/api/workflows/{name}/runs/batch", {
        params: { name: args[0] },
        body: batch.map((l) => l.run) as never,
      });
      created.push(...answer);
    } catch (err) {
      if (!(err instanceof ApiRefusal)) throw err;
      const first = batch[0].line;
      const last = batch[batch.length - 1].line;
      io.err(
        `yardmaster submit: lines ${first}-${last} of ${file} were refused and none of them queued; ` +
          `${created.length} runs from earlier lines were queued`,
      );
      // The runs queued by earlier batches stay printed (text: as each batch went; JSON: here).
      if (json) printJson(io, created);
      throw withLines(err, batch, file);
    }
    if (!json) for (const c of created.slice(-batch.length)) io.out(c.run_id);
  }
  if (json) printJson(io, created);
  else io.err(`Queued ${created.length} runs of ${args[0]} from ${file}.`);
  return EXIT_OK;
}

/** The refusal with each issue's item index read as its file line (`runs.jsonl:12.title`). */
function withLines(err: ApiRefusal, batch: Line[], file: string): ApiRefusal {
  if (!Array.isArray(err.body.errors)) return err;
  const errors = (err.body.errors as Array<{ loc?: unknown[] }>).map((issue) => {
    const loc = issue.loc;
    if (!Array.isArray(loc) || loc[0] !== "body" || typeof loc[1] !== "number") return issue;
    const line = batch[loc[1]]?.line;
    return line === undefined ? issue : { ...issue, loc: [`${file}:${line}`, ...loc.slice(2)] };
  });
  return new ApiRefusal(err.status, { ...err.body, errors });
}
