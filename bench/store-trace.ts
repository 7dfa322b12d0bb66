// Counting what the engine asks of the store, for the analysis in docs/benchmarks.md: how many
// transactions and statements one step costs, and where the time inside them goes. Installed in
// the server process only when BENCH_TRACE is set (it wraps the SQLite store's prototypes, so a
// timed call costs a little more than an untimed one).
//
// better-sqlite3 is synchronous and each store method is an async function with no await
// before its statement, so the time until the method returns its promise is the SQL work.
//
// On PostgreSQL (BENCH_STORE=postgres) every store method waits on the server, so a call is
// timed until its promise settles, and each statement sent (pg's Client.query: BEGIN,
// SAVEPOINT, COMMIT and every named statement) is counted under its first words, with the time
// until its answer: statements per step and round trips.
import pg from "pg";
import { PostgresStore } from "../src/stores/postgres/index.ts";
import { PgReader } from "../src/stores/postgres/reader.ts";
import { PgWriter } from "../src/stores/postgres/writer.ts";
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

/**
 * Times every method of `proto`: until it returns (SQLite: the statement ran inside), or with
 * `settle`, until the promise it answers settles (PostgreSQL: the server answered).
 */
function wrapMethods(proto: object, prefix: (self: object) => string, settle = false): void {
  for (const name of Object.getOwnPropertyNames(proto)) {
    const original = Reflect.get(proto, name) as unknown;
    if (name === "constructor" || typeof original !== "function") continue;
    Reflect.set(proto, name, function (this: object, ...args: unknown[]) {
      const start = performance.now();
      const done = () => add(`${prefix(this)}${name}`, performance.now() - start);
      let value: unknown;
      try {
        value = original.apply(this, args);
      } finally {
        if (!(settle && value instanceof Promise)) done();
      }
      if (settle && value instanceof Promise) value.then(done, done);
      return value;
    });
  }
}

/** A statement's label: `sql: ` and its first words (the name does not say what it does). */
function statementLabel(query: unknown): string {
  const text = typeof query === "string" ? query : (query as { text?: string })?.text;
  return `sql: ${String(text ?? "?")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 70)}`;
}

function wrapPgQueries(): void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const start = performance.now();
    const done = () => add(statementLabel(args[0]), performance.now() - start);
    const value = original.apply(this, args);
    if (value instanceof Promise) value.then(done, done);
    return value;
  };
}

type TransactFn = (fn: (tx: unknown) => Promise<unknown>) => Promise<unknown>;

/** Splits each transaction into its wait for the store's mutex, its body, and the commit. */
function wrapTransact(store: { prototype: { transact: unknown } }): void {
  const original = store.prototype.transact as TransactFn;
  const traced: TransactFn = async function (this: unknown, fn) {
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
  store.prototype.transact = traced;
}

export function installStoreTrace(): () => TraceReport {
  wrapMethods(SqliteReader.prototype, (self) => (self instanceof SqliteWriter ? "tx." : "read."));
  wrapMethods(SqliteWriter.prototype, () => "tx.");
  wrapTransact(SqliteStore);
  wrapMethods(PgReader.prototype, (self) => (self instanceof PgWriter ? "tx." : "read."), true);
  wrapMethods(PgWriter.prototype, () => "tx.", true);
  wrapTransact(PostgresStore);
  wrapPgQueries();
  return () => Object.fromEntries([...tallies].sort((a, b) => b[1].ms - a[1].ms));
}
