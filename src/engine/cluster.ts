// One of several servers sharing a store (PostgreSQL). Each server has an id, stable for its
// life, and a row with a lease it renews on every heartbeat; its claims name it as the owner
// (ClaimScope), and a pool's capacity is counted over all servers. On every heartbeat a server
// also looks for dead ones (lease run out, or presence gone: a killed server's connection
// closes) and takes their work back: their attempts are released (recovery.ts) with
// `engine.recovered` naming the dead server, in one unit that deletes its row, so one survivor
// does it once. A server that finds its own row gone, or could not renew it for a whole lease,
// has lost its lease: it stops its attempts without writing anything for them (the claim guard
// refuses their late writes anyway: their rows were released and maybe claimed again), hands
// back what is still its own, and joins again under a new id.
//
// Events: every server publishes the events of all servers in id order (event-sequencer.ts),
// reading the table when another server's notice arrives and on every heartbeat (a notice can
// be lost). Events committed elsewhere are then looked at here: a live attempt whose row they
// changed (cancelled, deleted, moved, set to a status, its workflow removed, released by a
// failover) is stopped; new work wakes the dispatcher; a registration is handed to the server.
import { hostname } from "node:os";
import { ulid } from "ulid";
import type { EngineCore } from "./core.ts";
import type { EventRecord } from "./domain.ts";
import { EventSequencer, markRemote } from "./event-sequencer.ts";
import { Interrupt, type InterruptReason } from "./interrupt.ts";
import { releaseAttempts, requeueAnswered } from "./recovery.ts";
import type { ClaimScope, StoreCluster } from "./store.ts";
import type { Work } from "./unit-of-work.ts";

/** The lease of a server that gives none: renewed every second, so 15 s is 15 missed beats. */
export const DEFAULT_LEASE_MS = 15_000;
/** The heartbeat: renew, look for dead servers, read events a lost notice did not announce. */
const BEAT_MS = 1000;

/** Why an attempt is stopped here when another server's event changed its row. */
const STOPPED_BY: Partial<Record<string, InterruptReason>> = {
  "run.cancelled": "cancel",
  "task.cancelled": "cancel",
  "run.deleted": "delete",
  "task.moved": "move",
  "task.status_set": "set_status",
  "workflow.unregistered": "unregistered",
};

export interface ClusterOptions {
  leaseMs?: number;
  /** What other servers are told this server is reached at. */
  url?: string | null;
  /** Registrations another server made or removed (the server loads the workflow). */
  onRegistration?: (event: EventRecord) => void;
  onError: (err: unknown) => void;
}

export class ClusterMember {
  #id: string;
  readonly leaseMs: number;
  readonly #beatMs: number;
  #sequencer: EventSequencer | null = null;
  #stopListening: (() => void) | null = null;
  #timer: NodeJS.Timeout | null = null;
  #lastRenewed = 0;
  #beating: Promise<void> | null = null;
  #stopped = false;

  constructor(
    private readonly core: EngineCore,
    private readonly store: StoreCluster,
    private readonly options: ClusterOptions,
  ) {
    this.#id = newServerId();
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#beatMs = Math.max(50, Math.min(BEAT_MS, Math.floor(this.leaseMs / 3)));
  }

  /** This server's id (a new one after a lost lease). */
  get id(): string {
    return this.#id;
  }

  /** The claim of this server: its id, and the pool's capacity over every server. */
  scope(capacity: number): ClaimScope {
    return { owner: this.#id, capacity };
  }

  /**
   * Joins, then takes back the work of servers that died (or of this store's servers from
   * before owners existed). Events are published through the sequencer from here on.
   */
  async start(): Promise<void> {
    const last = await this.core.store.lastEventId();
    const sequencer = new EventSequencer(
      this.core.store,
      this.core.bus,
      last,
      (events) => this.#heard(events),
      this.options.onError,
    );
    this.#sequencer = sequencer;
    this.core.uow.publish = (stored, unstored) => {
      sequencer.local(stored, unstored);
      this.store.announce(unstored);
    };
    this.#stopListening = this.store.listen((notice) => {
      if (notice.kind === "unstored") {
        markRemote(notice.events);
        this.core.bus.publish(notice.events);
        this.#heard(notice.events);
      } else sequencer.catchUp();
    });
    await this.#join();
    await this.#reap(await this.store.deadServers(this.#id), true);
    this.#timer = setInterval(() => this.#beat(), this.#beatMs);
    this.#timer.unref();
  }

  /** Stops the heartbeat; `handBack` then releases what is still this server's. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#beating;
  }

  /** After the attempts stopped: releases this server's attempts at once and leaves. */
  async handBack(): Promise<void> {
    await this.#release([this.#id], this.#id);
    await this.store.leave(this.#id);
    this.#stopListening?.();
  }

  async #join(): Promise<void> {
    const server = {
      id: this.#id,
      host: hostname(),
      pid: process.pid,
      url: this.options.url ?? null,
    };
    await this.store.join(server, this.leaseMs);
    this.#lastRenewed = Date.now();
    this.#share((await this.store.servers()).length);
  }

  /** Each pool's share of its capacity with `servers` live servers; more room wakes it. */
  #share(servers: number): void {
    for (const pool of this.core.registry.pools.values()) {
      const share = Math.ceil(pool.capacity / Math.max(1, servers));
      const grew = share > pool.share;
      pool.share = share;
      if (grew) this.core.wake(pool.name);
    }
  }

  #beat(): void {
    if (this.#beating || this.#stopped) return;
    this.#beating = this.#tick()
      .catch(this.options.onError)
      .finally(() => {
        this.#beating = null;
      });
  }

  async #tick(): Promise<void> {
    let renewed: boolean | null;
    try {
      renewed = await this.store.renew(this.#id, this.leaseMs);
    } catch (err) {
      renewed = null;
      this.options.onError(err);
    }
    if (renewed) this.#lastRenewed = Date.now();
    if (renewed === false || Date.now() - this.#lastRenewed > this.leaseMs) {
      await this.#leaseLost();
      return;
    }
    if (renewed === null) return;
    this.#sequencer?.catchUp();
    this.#share((await this.store.servers()).length);
    const dead = await this.store.deadServers(this.#id);
    if (dead.length) await this.#reap(dead, false);
  }

  /** Deletes the dead servers' rows and releases their attempts, in one unit. */
  async #reap(dead: readonly string[], atStart: boolean): Promise<void> {
    await this.#releasing(this.#id, async (work) => {
      const waiting: number[] = [];
      const dropped = (await work.tx.dropServers?.(dead)) ?? [];
      for (const server of dropped) {
        const tasks = (await work.tx.orphanedTasks?.([server])) ?? [];
        waiting.push(...(await releaseAttempts(this.core, work, tasks, server)));
      }
      // At start, also what no live row owns (a row deleted by hand, a server from before).
      if (atStart) {
        const rest = (await work.tx.orphanedTasks?.(null)) ?? [];
        waiting.push(...(await releaseAttempts(this.core, work, rest)));
      }
      return waiting;
    });
  }

  /** Releases what `owners` still hold, `engine.recovered` naming `server`. */
  async #release(owners: readonly string[], server: string): Promise<void> {
    await this.#releasing(null, async (work) => {
      const tasks = (await work.tx.orphanedTasks?.(owners)) ?? [];
      return releaseAttempts(this.core, work, tasks, server);
    });
  }

  /**
   * One unit that releases attempts (`release` answers the ones that were waiting on a person),
   * then the wake-up, then those answered meanwhile queued again, attributed to `by`.
   */
  async #releasing(by: string | null, release: (work: Work) => Promise<number[]>): Promise<void> {
    let waiting: number[] = [];
    await this.core.uow.run(async (work) => {
      waiting = await release(work);
      work.after(() => this.core.wake());
    });
    await requeueAnswered(this.core, waiting, by);
  }

  /**
   * The lease is gone: stop every attempt here without writing, release what is still this
   * server's (nothing, if a survivor did it already), leave, and join again under a new id.
   */
  async #leaseLost(): Promise<void> {
    const old = this.#id;
    this.options.onError(
      new Error(`server ${old} lost its lease; its attempts stop and it joins again`),
    );
    for (const live of this.core.live.values()) live.abort.abort(new Interrupt("shutdown"));
    await this.#release([old], old);
    await this.store.leave(old).catch(() => {});
    this.#id = newServerId();
    await this.#join();
    this.core.wake();
  }

  /** Events another server committed, after they were published here. */
  #heard(events: readonly EventRecord[]): void {
    const touched = new Map<string, InterruptReason>();
    let work = false;
    for (const e of events) {
      if (e.name.startsWith("workflow.")) this.options.onRegistration?.(e);
      if (e.run_id !== null) {
        const reason = STOPPED_BY[e.name] ?? touched.get(e.run_id) ?? "set_status";
        touched.set(e.run_id, reason);
      }
      if (e.name === "engine.recovered" || e.name === "workflow.unregistered") {
        for (const id of (e.data as { task_ids?: number[] }).task_ids ?? []) {
          const live = this.core.live.get(id);
          if (live) touched.set(live.runId, "shutdown");
        }
      }
      work = true;
    }
    if (touched.size) void this.#check(touched).catch(this.options.onError);
    if (work) this.core.wake();
  }

  /** Stops the live attempts of these runs whose row is no longer theirs. */
  async #check(runs: Map<string, InterruptReason>): Promise<void> {
    for (const live of [...this.core.live.values()]) {
      const reason = runs.get(live.runId);
      if (reason === undefined) continue;
      const row = await this.core.store.getTask(live.taskId);
      const ours =
        row !== null &&
        (row.status === "in_progress" || row.status === "waiting") &&
        row.claim === live.claim;
      if (!ours) this.core.interrupt(live.taskId, new Interrupt(reason));
    }
  }
}

/** A server id: sortable by start, unique without coordination. */
function newServerId(): string {
  return `srv_${ulid().toLowerCase()}`;
}
