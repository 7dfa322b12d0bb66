// A real engine on a real store (a SQLite file in a fresh temp directory, or see test-store.ts),
// with every published event recorded, and bounded waits (every wait fails the test after a deadline instead of hanging).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Backoff, Workflow } from "../../src/authoring/index.ts";
import { type Clock, Engine, type EventRecord, type Store } from "../../src/engine/index.ts";
import { openStore } from "../../src/server/start.ts";
import { EngineOperatorService } from "../../src/service/operator-service.ts";
import { testStoreUrl } from "./test-store.ts";
import { eventually } from "./wait.ts";

export interface Harness {
  dir: string;
  store: Store;
  engine: Engine;
  service: EngineOperatorService;
  events: EventRecord[];
  errors: unknown[];
  register(wf: Workflow, pool?: string): void;
  waitFor<T>(
    probe: () => T | undefined | false | Promise<T | undefined | false>,
    what: string,
    ms?: number,
  ): Promise<T>;
  waitEvent(name: string, match?: (e: EventRecord) => boolean, ms?: number): Promise<EventRecord>;
  named(name: string, runId?: string): EventRecord[];
  close(): Promise<void>;
}

export interface HarnessOptions {
  pools?: Record<string, { capacity: number }>;
  defaults?: { retries?: number; priority?: number; backoff?: Backoff | null };
  dir?: string;
  /** The engine's clock (a ManualClock in tests of timed work). */
  clock?: Clock;
  random?: () => number;
  start?: boolean;
  idempotencyWindowMs?: number;
  retainMs?: number;
  /** The store's URL, instead of the folder's own (engines sharing one PostgreSQL schema). */
  storeUrl?: string;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "ym-engine-"));
  const store = await openStore(options.storeUrl ?? testStoreUrl(dir));
  const errors: unknown[] = [];
  const engine = new Engine({
    store,
    pools: options.pools ?? { default: { capacity: 4 } },
    defaults: options.defaults,
    onError: (err) => errors.push(err),
    stopGraceMs: 2000,
    idempotencyWindowMs: options.idempotencyWindowMs,
    clock: options.clock,
    retainMs: options.retainMs,
    random: options.random,
  });
  const service = new EngineOperatorService(engine, "test");
  const events: EventRecord[] = [];
  engine.bus.subscribe((e) => events.push(e));
  const waitFor: Harness["waitFor"] = (probe, what, ms = 10_000) =>
    eventually(probe, what, ms, 5) as never;
  const h: Harness = {
    dir,
    store,
    engine,
    service,
    events,
    errors,
    register(wf, pool = "default") {
      engine.register({
        name: wf.name,
        graph: wf.finalize(),
        workflow: wf,
        pool,
        target: null,
        file: null,
        loaded: null,
      });
    },
    waitFor,
    waitEvent: (name, match = () => true, ms) =>
      waitFor(() => events.find((e) => e.name === name && match(e)), `event ${name}`, ms),
    named: (name, runId) =>
      events.filter((e) => e.name === name && (runId === undefined || e.run_id === runId)),
    async close() {
      await engine.stop();
      await store.close();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
  if (options.start !== false) await engine.start();
  return h;
}

/** A promise with its resolver, for bodies that must wait until the test lets them go. */
export function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    open = r;
  });
  return { promise, open };
}
