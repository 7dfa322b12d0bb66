// Counting what the engine asks of the store, for the analysis in docs/benchmarks.md: how many
// transactions and statements one step costs, and where the time inside them goes. Installed in
// the server process only when BENCH_TRACE is set (it wraps the SQLite store's prototypes, so a
// timed call costs a little more than an untimed one).
//
// better-sqlite3 is synchronous and each store method is an async function with no await
// before its statement, so the time until the method returns its promise is the SQL work.
import { SqliteStore } from "../src/stores/sqlite/index.ts";
import { SqliteReader } from "../src/stores/sqlite/reader.ts";
import { SqliteWriter } from "../src/stores/sqlite/writer.ts";

interface Tally {
  calls: number;
  ms: number;
}

export type TraceReport = Record<string, Tally>;

const tallies = new Map<string, Tally>();

function add(key: string, ms: number): void {
  const t = tallies.get(key) ?? { calls: 0, ms: 0 };
  t.calls += 1;
  t.ms += ms;
  tallies.set(key, t);
}

function wrapMethods(proto: object, prefix: (self: object) => string): void {
  for (const name of Object.getOwnPropertyNames(proto)) {
    const original = Reflect.get(proto, name) as unknown;
    if (name === "constructor" || typeof original !== "function") continue;
    Reflect.set(proto, name, function (this: object, ...args: unknown[]) {
      const start = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        add(`${prefix(this)}${name}`, performance.now() - start);
      }
    });
  }
}

type TransactFn = (fn: (tx: unknown) => Promise<unknown>) => Promise<unknown>;

/** Splits each transaction into its wait for the store's mutex, its body, and the commit. */
function wrapTransact(): void {
  const original = SqliteStore.prototype.transact as unknown as TransactFn;
  const traced: TransactFn = async function (this: SqliteStore, fn) {
    const called = performance.now();
    let began = called;
    let bodyEnd = called;
    const value = await original.call(this, async (tx) => {
      began = performance.now();
      add("transact: wait for mutex", began - called);
      try {
        return await fn(tx);
      } finally {
        bodyEnd = performance.now();
        add("transact: body", bodyEnd - began);
      }
    });
    add("transact: commit and hand-back", performance.now() - bodyEnd);
    return value;
  };
  SqliteStore.prototype.transact = traced as unknown as SqliteStore["transact"];
}

export function installStoreTrace(): () => TraceReport {
  wrapMethods(SqliteReader.prototype, (self) => (self instanceof SqliteWriter ? "tx." : "read."));
  wrapMethods(SqliteWriter.prototype, () => "tx.");
  wrapTransact();
  return () => Object.fromEntries([...tallies].sort((a, b) => b[1].ms - a[1].ms));
}
