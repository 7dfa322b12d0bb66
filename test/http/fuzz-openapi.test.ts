// Keeps the server's input hardening fixed (issue 20): a fuzz test generated from the running
// server's own /openapi.json. Every operation gets a few cases from a fixed seed; each case mixes
// valid-shaped values (often real ids of the seeded server), boundary values and hostile ones
// (huge strings, deep nesting, lone surrogates, wrong types, unknown and prototype members, odd
// unicode, globs full of `*`, regex-like strings, bad percent-escapes, oversized headers), sent
// with the operator token mostly and without it or with a wrong one sometimes. It holds: no 5xx;
// every refusal is JSON `{error, code}` with a code of docs/errors.md at its documented status,
// `validation` with `errors: [{loc, msg, type}]`; /api/health answers between cases and while
// they run; afterwards a normal run still completes and the SQLite file passes integrity_check.
//
// Why fast-check, with a small JSON-Schema-to-arbitrary translation (support/fuzz-schema.ts): it
// is maintained, seeds deterministically, and shrinks a failure to a minimal case (a depth, a
// length, one field), which a report needs. Nothing on npm fits better: json-schema-fast-check
// has one release (0.0.6), built on fast-check 1, io-ts and faker 4; json-schema-faker and
// openapi-sampler produce valid examples, not hostile ones, and do not shrink; openapi-fuzzer-core
// reads Swagger 2 (`#/definitions`) and lists a fixed set of wrong paths, methods and parameters.
// Schemathesis, the tool made for this, is Python, which this project does not install.
//
// A failure prints each failing operation's minimal request (method, path, headers with tokens
// masked, body excerpt), the answer, and the seed and path that replay it.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, type FixtureState, startFixture } from "../support/fuzz-fixture.ts";
import {
  type Credentials,
  type FuzzRequest,
  type Operation,
  operationsOf,
  requestFor,
} from "../support/fuzz-requests.ts";
import { KNOWN_KEYWORDS, type SchemaContext, schemaKeywords } from "../support/fuzz-schema.ts";
import { describeRequest, excerpt, send } from "../support/fuzz-send.ts";
import { confineTarget, targetArbitrary } from "../support/fuzz-targets.ts";
import {
  errorCatalogue,
  healthAnswers,
  pollHealth,
  problemWith,
} from "../support/fuzz-verdicts.ts";
import { crash, killAll, stop } from "../support/serve.ts";
import { eventually } from "../support/wait.ts";

/** The fixed seed; YM_FUZZ_SEED picks another one to explore (a report names the one used). */
const SEED = Number(process.env.YM_FUZZ_SEED ?? 20_20_0620);
const CASES_PER_OPERATION = 10;
/** Bounds on waiting, never assertions about speed: they keep a hung server from hanging the test. */
const HEALTH_BOUND_MS = 2_000;
const REQUEST_BOUND_MS = 15_000;
/** The agent's answer poll may wait up to 120 s by contract; still waiting at this bound is fine. */
const POLL_BOUND_MS = 3_000;
/** Shrinking a failure stops here, reporting the smallest case found so far. */
const OPERATION_BOUND_MS = 25_000;

let dir: string;
let fixture: Fixture;
let spec: any;
let catalogue: Map<string, number[]>;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ym-fuzz-"));
  fixture = await startFixture(dir, children);
  spec = (await fixture.api("GET", "/openapi.json")).body;
}, 60_000);

afterAll(() => {
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});

// Operations run in this order: reads, then writes, then answers (after the agent's asks, so a
// request opened with a hostile schema gets answered), then what cancels or removes things
// others need, so that fewer re-seeds are needed. The event stream goes last: a glob that
// backtracks can stop the server for good, and must not hide what the others would find.
const WRECKS = /\/(cancel|status|move)$/;
function order(op: Operation): number {
  if (op.path === "/api/events") return 4;
  if (op.method === "GET") return 0;
  if (op.path.endsWith("/answer")) return 2;
  return op.method === "DELETE" || WRECKS.test(op.path) ? 3 : 1;
}

/** One seed per operation, from its name: adding an operation does not reshuffle the others. */
function seedFor(op: Operation): number {
  let h = SEED | 0;
  for (const ch of `${op.method} ${op.path}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

const isPoll = (op: Operation) => op.path === "/api/agent/tasks/{task_id}/requests/{request_id}";

function contextFor(op: Operation, s: FixtureState): SchemaContext {
  const agentRoute = op.path.startsWith("/api/agent/");
  // On a plugin route `wf` and `name` are a workflow with that kind of plugin and its names.
  const kind = op.path.includes("/actions/")
    ? "actions"
    : op.path.includes("/panels/")
      ? "panels"
      : undefined;
  const owners = kind ? s.plugins.filter((p) => p[kind].length) : [];
  return {
    components: spec.components.schemas,
    hints: {
      run_id: s.runIds,
      run: s.runIds,
      task_id: agentRoute ? [s.agent.taskId] : [...s.taskIds, s.agent.taskId],
      request_id: agentRoute ? s.agent.requestIds : s.requestIds,
      name: kind ? owners.flatMap((p) => p[kind]) : s.workflows,
      wf: kind ? owners.map((p) => p.workflow) : s.workflows,
      workflow: s.workflows,
      node: s.nodes,
      target: targetArbitrary(dir, fixture.workflows),
      pool: ["default", "agents"],
      option_id: ["yes", "no"],
      // Replay from the start: a stream filter then meets every stored event at once.
      after: [0],
    },
    confine: { target: confineTarget(dir) },
  };
}

interface CaseLog {
  count: number;
  /** The case in flight, and the one before it (a stall may start after its case answered). */
  sending: string;
  previous: string;
  wedged: boolean;
}

/** Whether the server answers /api/health now, or within 30 s (a slow case may still be running). */
async function recovers(): Promise<boolean> {
  const answers = () => healthAnswers(fixture.served.url, HEALTH_BOUND_MS);
  return (await answers()) || eventually(answers, "health", 30_000).catch(() => false);
}

/** Sends one case and throws what it broke; a server that stopped answering ends the fuzz. */
async function checkCase(
  op: Operation,
  req: FuzzRequest,
  creds: Credentials,
  log: CaseLog,
): Promise<void> {
  if (log.wedged) return; // nothing answers any more; the first failure is the one to report
  log.count++;
  log.previous = log.sending;
  log.sending = describeRequest(req, creds);
  const reply = await send(fixture.served.url, req, isPoll(op) ? POLL_BOUND_MS : REQUEST_BOUND_MS);
  const problem =
    isPoll(op) && reply.kind === "unanswered" ? undefined : problemWith(reply, catalogue);
  const answer = reply.kind === "answered" ? `\n  answer: ${excerpt(reply.text)}` : "";
  if (!(await healthAnswers(fixture.served.url, HEALTH_BOUND_MS))) {
    log.wedged = !(await recovers());
    const gone = log.wedged ? " and still did not 30 s later" : "";
    const shape = problem ?? "the case itself was answered in shape";
    throw new Error(
      `/api/health did not answer within ${HEALTH_BOUND_MS} ms after this case${gone}; ${shape}${answer}`,
    );
  }
  if (problem) throw new Error(`${problem}${answer}`);
}

/** Still a working server: a plain run goes through to completion. */
async function runAfterTheFuzz(): Promise<true> {
  await fixture.refresh();
  const { body } = await fixture.api("POST", "/api/workflows/chain/runs", { title: "after" });
  const status = async () => (await fixture.api("GET", `/api/runs/${body.run_id}`)).body.status;
  return eventually(async () => (await status()) === "completed", "the run to complete", 30_000);
}

function report(op: Operation, details: fc.RunDetails<[FuzzRequest]>, creds: Credentials): string {
  const [req] = details.counterexample!;
  const why =
    details.errorInstance instanceof Error
      ? details.errorInstance.message
      : String(details.errorInstance);
  return [
    `${op.method} ${op.path}: ${why}`,
    describeRequest(req, creds)
      .split("\n")
      .map((l) => `  ${l}`)
      .join("\n"),
    `  (case ${details.numRuns} of seed ${details.seed}, shrunk ${details.numShrinks} times; replay path "${details.counterexamplePath}")`,
  ].join("\n");
}

describe("fuzzing every operation of /openapi.json", () => {
  it("keeps the error contract and the server's health under hostile input", {
    timeout: 300_000,
  }, async () => {
    catalogue = errorCatalogue();
    const ops = operationsOf(spec).sort((a, b) => order(a) - order(b));
    expect(ops.length).toBeGreaterThan(30);
    const failures: string[] = [];
    const log: CaseLog = { count: 0, sending: "nothing yet", previous: "nothing", wedged: false };
    let generated = 0;
    const started = Date.now();
    const poller = pollHealth(fixture.served.url, HEALTH_BOUND_MS, () => log.sending);
    for (const op of ops) {
      log.sending = `(no case: re-seeding the fixture before ${op.method} ${op.path})`;
      const state = await fixture.refresh().catch((err: Error) => err);
      if (state instanceof Error) {
        failures.push(
          `Re-seeding the fixture before ${op.method} ${op.path} failed: ${state.message}`,
        );
        log.wedged = !(await recovers());
        break;
      }
      const ctx = contextFor(op, state);
      const schemas = [...op.params.map((p) => p.schema), ...(op.body ? [op.body] : [])];
      const unknown = schemas.flatMap((s) =>
        [...schemaKeywords(s, ctx)].filter((k) => !KNOWN_KEYWORDS.has(k)),
      );
      expect(unknown, `${op.method} ${op.path} uses keywords the generator ignores`).toEqual([]);
      const creds: Credentials = {
        operator: fixture.operator,
        task: state.agent.token,
        stale: state.staleTokens,
      };
      const details = (await fc.check(
        fc.asyncProperty(requestFor(op, ctx, creds), (req) => checkCase(op, req, creds, log)),
        {
          seed: seedFor(op),
          numRuns: CASES_PER_OPERATION,
          plugins: [fc.interruptAfterTimeLimit(OPERATION_BOUND_MS)],
        },
      )) as fc.RunDetails<[FuzzRequest]>;
      generated += details.numRuns;
      if (details.failed) failures.push(report(op, details, creds));
      if (log.wedged) {
        const left = ops.length - ops.indexOf(op) - 1;
        failures.push(
          `The server stopped answering (the case before the last one:\n${log.previous}); ${left} operations were not fuzzed.`,
        );
        break;
      }
    }
    await poller.stop();
    if (!log.wedged && !(await recovers())) {
      log.wedged = true;
      failures.push(
        `The server stopped answering after the last cases:\n${log.previous}\n${log.sending}`,
      );
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `fuzz: ${generated} cases (${log.count} requests with shrinking) over ${ops.length} operations in ${seconds} s, seed ${SEED}`,
    );
    failures.push(...poller.misses);

    if (!log.wedged) {
      const after = await runAfterTheFuzz().catch((err: Error) => err.message);
      if (after !== true) failures.push(`After the fuzz, a plain run did not complete: ${after}`);
    }
    const stopped = await Promise.race([
      stop(fixture.served).then(() => true),
      new Promise((r) => setTimeout(r, 10_000, false)),
    ]);
    if (!stopped) {
      failures.push("The server did not stop within 10 s of SIGTERM; it was killed.");
      await crash(fixture.served);
    }
    const db = new Database(fixture.store, { fileMustExist: true });
    const integrity = db.pragma("integrity_check", { simple: true });
    db.close();
    if (integrity !== "ok") failures.push(`PRAGMA integrity_check: ${integrity}`);

    expect(failures.join("\n\n")).toBe("");
  });
});
