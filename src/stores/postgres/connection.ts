// Connecting: the store URL and its `?schema=` parameter, the two pools (one connection for
// transactions, a few for reads), the per-pool type parsers, and errors that name the server
// without ever showing the password.
import pg from "pg";

export interface PostgresOptions {
  /** Connections for reads outside transactions (default 8). */
  readConnections?: number;
  /** How long connecting may take before it fails, in ms (default 10000). */
  connectTimeoutMs?: number;
}

export const CONNECT_TIMEOUT_MS = 10_000;

export interface Target {
  /** The URL handed to pg: without `schema`, with `-c search_path=<schema>` in `options`. */
  connectionString: string;
  schema: string;
  /** `user@host:port/database`, for messages. */
  label: string;
  /** Scrubbed from every message this store makes. */
  password: string;
}

export interface Pools {
  /** One connection: every transaction runs on it, one batch at a time. */
  writer: pg.Pool;
  reader: pg.Pool;
}

// Unquoted PostgreSQL identifiers fold to lower case; allowing only these keeps the name the
// same whether it is quoted (CREATE SCHEMA) or not (search_path).
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function parseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not echoed: the text may hold a password.
    throw new Error("postgres store: the store URL is not a valid URL");
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new Error("postgres store: the store URL must start with postgres:// or postgresql://");
  }
  return parsed;
}

export function parseTarget(url: string): Target {
  const parsed = parseUrl(url);
  const schema = parsed.searchParams.get("schema") ?? "public";
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(
      `postgres store: schema ${JSON.stringify(schema)} must be lower-case letters, digits and _ (at most 63, not starting with a digit)`,
    );
  }
  parsed.searchParams.delete("schema");
  const options = [parsed.searchParams.get("options"), `-c search_path=${schema}`];
  parsed.searchParams.set("options", options.filter(Boolean).join(" "));
  const user = decodeURIComponent(parsed.username) || "(default user)";
  const host = decodeURIComponent(parsed.hostname) || "localhost";
  const database = decodeURIComponent(parsed.pathname.slice(1)) || user;
  return {
    connectionString: parsed.toString(),
    schema,
    label: `${user}@${host}:${parsed.port || "5432"}/${database}`,
    password: decodeURIComponent(parsed.password),
  };
}

/** The URL with one more `-c name=value` in its `options` (a setting of the session). */
function withSetting(connectionString: string, setting: string): string {
  const url = new URL(connectionString);
  const options = [url.searchParams.get("options"), `-c ${setting}`];
  url.searchParams.set("options", options.filter(Boolean).join(" "));
  return url.toString();
}

function bigintToNumber(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`postgres store: ${text} is not a safe integer`);
  return n;
}

/**
 * Per-pool type parsers (pg.types.setTypeParser would change every user of `pg` in the
 * process): bigint as a JS number (epoch ms and ids stay far below 2^53), json parsed.
 */
const TYPES = {
  getTypeParser(oid: number, format?: string): any {
    if (format !== "binary") {
      if (oid === pg.types.builtins.INT8) return bigintToNumber;
      if (oid === pg.types.builtins.JSON) return JSON.parse;
    }
    return pg.types.getTypeParser(oid, format as "text");
  },
};

export function openPools(target: Target, options: PostgresOptions = {}): Pools {
  const base = {
    connectionString: target.connectionString,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    application_name: "yardmaster",
    types: TYPES,
  };
  // Idle connections are kept (idleTimeoutMillis 0): the writer's is used all the time.
  // The writer pipelines (pg's pipeline mode): a statement goes out as soon as it is sent, not
  // after the one before it answered, so the savepoints and the writes a unit does not wait for
  // (transaction.ts) cost it no round trip. Answers still come back in order, and a statement
  // that fails inside the transaction aborts it as before.
  // The writer plans each statement once: PostgreSQL would otherwise plan a prepared statement
  // again on every call for as long as its custom plans look cheaper than the generic one, which
  // the writer's CTEs over `unnest` arrays always do, and that planning was 42 % of the writer
  // backend's CPU in W1 (`perf`, docs/benchmarks.md). Its statements find rows by key, so the
  // generic plan is the plan a value would get.
  const writer = new pg.Pool({
    ...base,
    connectionString: withSetting(target.connectionString, "plan_cache_mode=force_generic_plan"),
    max: 1,
    idleTimeoutMillis: 0,
    pipeline: true,
  });
  const reader = new pg.Pool({ ...base, max: options.readConnections ?? 8 });
  for (const pool of [writer, reader]) {
    // An idle connection that breaks (server restart) is dropped by the pool, which reports it
    // here; the next use opens a new one. A checked-out client reports through its query.
    pool.on("error", () => {});
    pool.on("connect", (client) => client.on("error", () => {}));
  }
  return { writer, reader };
}

/** What went wrong, from a pg or socket error (an AggregateError of a refused dual-stack
 * connect has an empty message). */
function reason(err: unknown): string {
  const e = err as { message?: string; code?: string; errors?: unknown[] };
  if (e?.message) return e.message;
  if (Array.isArray(e?.errors) && e.errors.length > 0) return e.errors.map(reason).join("; ");
  return e?.code ?? String(err);
}

/** An Error for `doing` on the target, its message free of the password. */
export function describeFailure(target: Target, doing: string, err: unknown): Error {
  let message = `postgres store: cannot ${doing} ${target.label}: ${reason(err)}`;
  if (target.password.length > 0) message = message.split(target.password).join("***");
  return new Error(message, { cause: err });
}
