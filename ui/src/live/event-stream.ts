// The console's ONE connection to GET /api/events. The browser reconnects an EventSource by
// itself and sends Last-Event-ID, so the server replays what we missed. When the stream is
// closed for good (an HTTP error), we reopen it with `after` = the last id seen. On every
// reopen we compare /api/me's `started_at`: a new value means the server restarted.
import { authorized, get } from "../api/client.ts";
import { getToken, onTokenChange, requireToken } from "../api/token.ts";
import type { EventEnvelope, Me } from "../api/types.ts";
import { EVENT_NAMES } from "./event-names.ts";

export type Connection = "connecting" | "live" | "reconnecting" | "offline";
/** A stored event, an ephemeral one, or a control signal telling listeners to refetch. */
export type StreamSignal =
  | { type: "event"; event: EventEnvelope }
  | { type: "resync" }
  | { type: "restart" }
  | { type: "gap" };

const listeners = new Set<(signal: StreamSignal) => void>();
const statusListeners = new Set<() => void>();
const extraNames = new Set<string>();
let source: EventSource | null = null;
let status: Connection = "connecting";
let lastId = 0;
let startedAt: string | null = null;
let opened = false;
let retryMs = 1000;
let timer: ReturnType<typeof setTimeout> | undefined;

function setStatus(next: Connection): void {
  if (next === status) return;
  status = next;
  for (const l of statusListeners) l();
}

function emit(signal: StreamSignal): void {
  for (const l of listeners) l(signal);
}

function onFrame(name: string, frame: MessageEvent<string>): void {
  let event: EventEnvelope;
  try {
    event = JSON.parse(frame.data) as EventEnvelope;
  } catch {
    return;
  }
  const id = typeof event.id === "number" ? event.id : null;
  if (id !== null) {
    // Stored ids are consecutive: a jump means events reached names we do not listen to
    // (a plugin's wildcard namespace). Panels following such globs refresh on a gap.
    if (lastId > 0 && id > lastId + 1) emit({ type: "gap" });
    lastId = Math.max(lastId, id);
  }
  emit({ type: "event", event: { ...event, name: event.name ?? name } });
}

async function checkServer(): Promise<void> {
  try {
    const me = await get<Me>("/api/me");
    if (me.auth === "token" && !me.authenticated) requireToken();
    if (startedAt !== null && me.started_at !== startedAt) emit({ type: "restart" });
    startedAt = me.started_at;
  } catch {}
}

function streamUrl(): string {
  const params = new URLSearchParams();
  if (lastId > 0) params.set("after", String(lastId));
  const token = getToken();
  if (token) params.set("access_token", token);
  const q = params.toString();
  return `/api/events${q ? `?${q}` : ""}`;
}

function listen(es: EventSource, name: string): void {
  es.addEventListener(name, (frame) => onFrame(name, frame as MessageEvent<string>));
}

function open(): void {
  clearTimeout(timer);
  source?.close();
  const es = new EventSource(streamUrl());
  source = es;
  for (const name of [...EVENT_NAMES, ...extraNames]) listen(es, name);
  es.addEventListener("resync", () => emit({ type: "resync" }));
  es.onopen = () => {
    retryMs = 1000;
    setStatus("live");
    // The first open covers the moment between the first fetches and the stream; a reopen
    // after a restart lost nothing stored, but the server's plugins and state may be new.
    if (!opened) emit({ type: "resync" });
    opened = true;
    void checkServer();
  };
  es.onerror = () => {
    if (es !== source) return;
    if (es.readyState === EventSource.CLOSED) {
      setStatus("offline");
      void checkServer();
      timer = setTimeout(() => void authorized().then(open), retryMs);
      retryMs = Math.min(retryMs * 2, 15_000);
    } else setStatus("reconnecting");
  };
}

let started = false;
/** Opens the stream once for the whole page; a new token reopens it. */
export function startEventStream(): void {
  if (started) return;
  started = true;
  // Opened once the credential is known good: a bare stream on a token server is a 401.
  void authorized().then(() => {
    void checkServer();
    open();
    onTokenChange(() => {
      if (getToken()) open();
    });
  });
}

/** Also listen to these exact names (plugin events named by a panel's `refresh_on`). */
export function listenToNames(names: Iterable<string>): void {
  for (const name of names) {
    if (extraNames.has(name) || (EVENT_NAMES as readonly string[]).includes(name)) continue;
    extraNames.add(name);
    if (source) listen(source, name);
  }
}

export function onStream(listener: (signal: StreamSignal) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function connectionStatus(): Connection {
  return status;
}

export function onStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}
