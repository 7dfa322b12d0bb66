// Several servers on one schema (StoreCluster of src/engine/store.ts). Each server keeps one
// connection of its own, the notice connection: it holds the server's presence lock
// (servers.ts) and LISTENs on the schema's channel. After every commit that stored events the
// store NOTIFYs the channel with the highest id it stored ("read after what you published"):
// the events table stays the source of truth and a payload carries no event, so a notice that
// is lost (a reconnect) costs only latency: the engine re-reads on every heartbeat and on
// reconnect. Events published without being stored (`run.deleted`) travel in the payload,
// a few per notice to stay under PostgreSQL's 8000-byte payload limit.
import pg from "pg";
import type { ClusterNotice, EventRecord, ServerRecord, StoreCluster } from "../../engine/index.ts";
import { CONNECT_TIMEOUT_MS, type Target } from "./connection.ts";
import * as servers from "./servers.ts";
import { type Db, sql } from "./sql.ts";

const NOTIFY = sql("SELECT pg_notify($1, $2)");

/** Longest payload sent; PostgreSQL refuses 8000 bytes and more. */
const MAX_PAYLOAD = 7000;
/** How long the notice connection waits before connecting again after it broke. */
const RECONNECT_MS = 500;

interface Payload {
  /** The sending server. */
  s: string;
  /** Events stored up to this id. */
  e?: number;
  /** Events published without being stored. */
  u?: EventRecord[];
}

export class PgCluster implements StoreCluster {
  readonly #channel: string;
  readonly #listeners = new Set<(notice: ClusterNotice) => void>();
  #client: pg.Client | null = null;
  #self: { id: string; host: string; pid: number; url: string | null } | null = null;
  #closed = false;
  /** The highest id committed here and not yet announced; one NOTIFY is in flight at most. */
  #pendingLast = 0;
  #sending = false;

  constructor(
    private readonly target: Target,
    /** Reads and small writes outside the writer's transactions (the read pool). */
    private readonly db: Db,
  ) {
    this.#channel = `yardmaster_${target.schema}`;
  }

  async join(
    server: { id: string; host: string; pid: number; url: string | null },
    leaseMs: number,
  ) {
    this.#self = server;
    await this.#connect();
    await servers.joinServer(this.db, server, leaseMs);
  }

  renew(id: string, leaseMs: number): Promise<boolean> {
    return servers.renewServer(this.db, id, leaseMs);
  }

  servers(): Promise<ServerRecord[]> {
    return servers.liveServers(this.db);
  }

  deadServers(self: string): Promise<string[]> {
    return servers.deadServers(this.db, this.target.schema, self);
  }

  listen(listener: (notice: ClusterNotice) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** After a commit that stored events up to `last`: tells the others (coalesced). */
  committed(last: number): void {
    if (last <= this.#pendingLast || this.#self === null) return;
    this.#pendingLast = last;
    if (!this.#sending) void this.#flush();
  }

  announce(events: readonly EventRecord[]): void {
    if (this.#self === null || events.length === 0) return;
    let batch: EventRecord[] = [];
    let size = 0;
    for (const event of events) {
      const bytes = Buffer.byteLength(JSON.stringify(event));
      if (batch.length > 0 && size + bytes > MAX_PAYLOAD) {
        this.#send({ s: this.#self.id, u: batch });
        batch = [];
        size = 0;
      }
      // An event too big for any payload is not announced: the others see its run gone.
      if (bytes <= MAX_PAYLOAD) {
        batch.push(event);
        size += bytes;
      }
    }
    if (batch.length > 0) this.#send({ s: this.#self.id, u: batch });
  }

  async leave(id: string): Promise<void> {
    await servers.leaveServer(this.db, id);
    this.#self = null;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => {});
  }

  async #flush(): Promise<void> {
    this.#sending = true;
    try {
      let sent = 0;
      while (this.#pendingLast > sent && this.#self !== null && !this.#closed) {
        sent = this.#pendingLast;
        await this.#notify({ s: this.#self.id, e: sent });
      }
    } finally {
      this.#sending = false;
    }
  }

  #send(payload: Payload): void {
    void this.#notify(payload);
  }

  async #notify(payload: Payload): Promise<void> {
    try {
      await this.db.run(NOTIFY, [this.#channel, JSON.stringify(payload)]);
    } catch {
      // Lost: the others re-read the table on their next heartbeat.
    }
  }

  #hear(text: string | undefined): void {
    let payload: Payload;
    try {
      payload = JSON.parse(text ?? "");
    } catch {
      return;
    }
    if (payload.s === this.#self?.id) return;
    const notice: ClusterNotice | null =
      payload.u !== undefined
        ? { kind: "unstored", events: payload.u }
        : typeof payload.e === "number"
          ? { kind: "events", last: payload.e }
          : null;
    if (notice) this.#tell(notice);
  }

  #tell(notice: ClusterNotice): void {
    for (const listener of this.#listeners) {
      try {
        listener(notice);
      } catch {
        // A faulty listener must not stop the others.
      }
    }
  }

  /** Opens the notice connection: presence lock first, then LISTEN. */
  async #connect(): Promise<void> {
    const self = this.#self;
    if (self === null) return;
    const client = new pg.Client({
      connectionString: this.target.connectionString,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: `yardmaster server ${self.id}`,
    });
    client.on("error", () => {});
    client.on("end", () => {
      if (this.#client === client) {
        this.#client = null;
        if (!this.#closed) setTimeout(() => void this.#reconnect(), RECONNECT_MS).unref();
      }
    });
    client.on("notification", (msg) => this.#hear(msg.payload));
    await client.connect();
    try {
      await client.query(`SELECT pg_advisory_lock(${servers.PRESENCE})`, [
        this.target.schema,
        self.id,
      ]);
      await client.query(`LISTEN "${this.#channel}"`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    this.#client = client;
  }

  async #reconnect(): Promise<void> {
    if (this.#closed || this.#self === null || this.#client !== null) return;
    try {
      await this.#connect();
      this.#tell({ kind: "reconnected" });
    } catch {
      if (!this.#closed) setTimeout(() => void this.#reconnect(), RECONNECT_MS).unref();
    }
  }
}
