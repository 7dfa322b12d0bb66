// A small query cache: one entry per key (e.g. "run/01H…"), shared by every view showing it.
// Data stays on screen while it is refetched, so a live update never blanks a panel (no layout
// jumps). Invalidation is by key prefix; only entries someone is watching refetch at once, the
// rest are marked stale and refetch when next shown.
import { useCallback, useEffect, useSyncExternalStore } from "react";

export interface QueryState<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
}

interface Entry {
  state: QueryState<unknown>;
  fetcher: () => Promise<unknown>;
  subs: Set<() => void>;
  inflight: boolean;
  /** Refetch once the one in flight ends: always, or unless it found nothing (a broad sweep). */
  again: false | "always" | "unless-missing";
  stale: boolean;
}

const entries = new Map<string, Entry>();
const EMPTY: QueryState<never> = { data: undefined, error: undefined, loading: false };

function entryFor(key: string, fetcher: () => Promise<unknown>): Entry {
  let entry = entries.get(key);
  if (!entry) {
    entry = { state: EMPTY, fetcher, subs: new Set(), inflight: false, again: false, stale: true };
    entries.set(key, entry);
  }
  entry.fetcher = fetcher;
  return entry;
}

function publish(entry: Entry, patch: Partial<QueryState<unknown>>): void {
  entry.state = { ...entry.state, ...patch };
  for (const notify of entry.subs) notify();
}

/** Whether the entry's thing was never found (a 404 before any data): it does not appear by itself. */
const neverFound = (entry: Entry) =>
  entry.state.data === undefined && (entry.state.error as { status?: number })?.status === 404;

async function run(entry: Entry, sweep = false): Promise<void> {
  // A refetch asked for while one is in flight runs after it, so the last answer is fresh.
  if (entry.inflight) {
    if (entry.again !== "always") entry.again = sweep ? "unless-missing" : "always";
    return;
  }
  entry.inflight = true;
  entry.stale = false;
  publish(entry, { loading: true });
  try {
    const data = await entry.fetcher();
    publish(entry, { data, error: undefined, loading: false });
  } catch (err) {
    publish(entry, { error: err as Error, loading: false });
  } finally {
    entry.inflight = false;
    const again = entry.again;
    entry.again = false;
    if (again === "always" || (again === "unless-missing" && !neverFound(entry))) void run(entry);
  }
}

/**
 * Refetches watched entries whose key starts with one of `prefixes`; marks the rest stale. A
 * broad sweep (`everything`: the stream's first open, a resync) leaves a never-found entry stale
 * instead: asking again would only be a second 404 in the browser's console.
 */
export function invalidate(prefixes: Iterable<string>, everything = false): void {
  const list = [...prefixes];
  for (const [key, entry] of entries) {
    if (!list.some((p) => key.startsWith(p))) continue;
    if (entry.subs.size > 0 && !(everything && neverFound(entry))) void run(entry, everything);
    else entry.stale = true;
  }
}

/** Marks `key` stale, so that it refetches when next shown. */
export function markStale(key: string): void {
  const entry = entries.get(key);
  if (entry) entry.stale = true;
}

export function invalidateAll(): void {
  invalidate([""], true);
}

/** Replaces an entry's data locally (an optimistic reorder); the next fetch corrects it. */
export function setQueryData<T>(key: string, update: (old: T | undefined) => T): void {
  const entry = entries.get(key);
  if (entry) publish(entry, { data: update(entry.state.data as T | undefined) });
}

/**
 * Watches `key` (null: nothing yet). The fetcher of the latest render is used, so it may close
 * over props; the key must change whenever what it fetches changes.
 */
export function useQuery<T>(
  key: string | null,
  fetcher: () => Promise<T>,
): QueryState<T> & { refetch: () => void } {
  const entry = key === null ? null : entryFor(key, fetcher);
  const subscribe = useCallback(
    (notify: () => void) => {
      if (!entry) return () => {};
      entry.subs.add(notify);
      return () => entry.subs.delete(notify);
    },
    [entry],
  );
  const state = useSyncExternalStore(subscribe, () => (entry ? entry.state : EMPTY));
  useEffect(() => {
    if (entry?.stale) void run(entry);
  }, [entry]);
  const refetch = useCallback(() => {
    if (entry) void run(entry);
  }, [entry]);
  return { ...(state as QueryState<T>), refetch };
}
