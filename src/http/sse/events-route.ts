// GET /api/events: replay stored events after a cursor, then go live, with no gap and no
// duplicate at the seam. The bus subscription is taken FIRST and buffers live events while the
// store is read; after the replay is written, the buffer is flushed minus the ids the replay
// already covered. An event committed before the subscription is in the store, one published
// after it is in the buffer, one in both is deduplicated by id.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { EventRecord } from "../../engine/index.ts";
import { ServiceError } from "../../service/errors.ts";
import { ApiError, EventEnvelope, EventsQuery } from "../../service/schemas/index.ts";
import type { ZodApp } from "../routes/route-kit.ts";
import { EventFanout } from "./event-fanout.ts";
import type { EventFeed } from "./event-feed.ts";
import { eventPredicate } from "./event-filter.ts";
import { eventFrame, RESYNC_FRAME } from "./frames.ts";
import { SeamBuffer } from "./seam-buffer.ts";
import { SseConnection, type SseLimits } from "./sse-connection.ts";

export interface EventStreamOptions {
  feed: EventFeed;
  replayCap: number;
  limits: SseLimits;
  /** Most streams open at once; one more is refused with 429 (docs/errors.md). */
  maxStreams: number;
}

/**
 * Each open stream holds a socket, a bus subscription and a heartbeat timer for as long as the
 * client likes, so their number is capped. The error-code vocabulary is closed: the refusal is
 * `conflict` (the server's state, its streams all taken, conflicts with one more) with the
 * status that says "try again later", 429.
 */
function tooManyStreams(max: number): ServiceError {
  return new ServiceError(
    "conflict",
    `The server already serves its limit of ${max} event streams; try again later.`,
    {},
    { status: 429 },
  );
}

function lastEventIdHeader(request: FastifyRequest): number | undefined {
  const value = request.headers["last-event-id"];
  return typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/** Stored events to replay, or null when the client must resync instead. */
async function loadReplay(
  options: EventStreamOptions,
  after: number,
  run: string | undefined,
): Promise<EventRecord[] | null> {
  // A cursor beyond our history comes from another store (or a wiped one): its state is stale.
  if (after > (await options.feed.lastEventId())) return null;
  const rows = await options.feed.replay(after, options.replayCap + 1, run);
  return rows.length > options.replayCap ? null : rows;
}

interface StreamCall {
  request: FastifyRequest;
  reply: FastifyReply;
  query: EventsQuery;
}

/**
 * Writes the replay (or a resync in its place) at the socket's pace, then lets the held live
 * events through. Live events published meanwhile wait in the seam buffer; if it overflowed
 * while the replay was written, the client is owed a resync before the live events.
 */
async function writeSeam(
  conn: SseConnection,
  tap: SeamBuffer,
  replay: EventRecord[] | null,
  after: number,
): Promise<void> {
  // After a resync nothing the client held counts: the store may be a new one whose ids start
  // again below the client's cursor, so every live event from here on goes through.
  let seam = 0;
  if (replay === null || tap.overflowed) {
    conn.send(RESYNC_FRAME);
  } else {
    if (!(await conn.sendPaced(replay.map(eventFrame)))) return;
    seam = replay.reduce((top, event) => Math.max(top, event.id ?? 0), after);
    if (tap.overflowed) conn.send(RESYNC_FRAME);
  }
  tap.release(seam);
}

/** Counts streams from the moment one is accepted until its response closes. */
class StreamSlots {
  #taken = 0;
  constructor(readonly max: number) {}
  /** Takes a slot for `reply`'s stream, given back when its response closes, whatever ends it. */
  take(reply: FastifyReply): void {
    if (this.#taken >= this.max) throw tooManyStreams(this.max);
    this.#taken += 1;
    reply.raw.once("close", () => {
      this.#taken -= 1;
    });
  }
}

interface Streams {
  fanout: EventFanout;
  open: Set<SseConnection>;
}

async function stream(options: EventStreamOptions, streams: Streams, call: StreamCall) {
  const { request, reply, query } = call;
  const after = query.after ?? lastEventIdHeader(request);
  const wanted = eventPredicate(query);
  const conn = new SseConnection(reply.raw, options.limits);
  const tap = new SeamBuffer(options.replayCap, (event) => conn.send(eventFrame(event)));
  // Subscribe FIRST: anything published from here on is held until the replay is written.
  // The filter runs here, on the fan-out's turn, never inside the engine's publish.
  const unsubscribe = streams.fanout.add((batch) => {
    for (const event of batch) if (wanted(event)) tap.accept(event);
  });
  const finish = () => {
    unsubscribe();
    streams.open.delete(conn);
    conn.close();
  };
  reply.raw.once("close", finish);
  let replay: EventRecord[] | null = [];
  try {
    if (after != null) replay = await loadReplay(options, after, query.run);
  } catch (error) {
    reply.raw.off("close", finish);
    unsubscribe();
    throw error;
  }
  reply.hijack();
  if (reply.raw.destroyed) return finish();
  streams.open.add(conn);
  conn.open();
  await writeSeam(conn, tap, replay?.filter(wanted) ?? null, after ?? 0);
}

/** Registers the route; answers how many streams are open now (for the metrics). */
export function registerEventStream(app: ZodApp, options: EventStreamOptions): () => number {
  const streams: Streams = { fanout: new EventFanout(options.feed.bus), open: new Set() };
  const slots = new StreamSlots(options.maxStreams);
  // Streams never end on their own; close them so the server can stop, after handing them
  // what was published last.
  app.addHook("preClose", async () => {
    streams.fanout.flush();
    for (const conn of streams.open) conn.close();
  });
  app.addHook("onClose", async () => streams.fanout.close());
  app.get(
    "/api/events",
    {
      exposeHeadRoute: false,
      config: { auth: "operator-or-query" },
      schema: {
        tags: ["events"],
        operationId: "streamEvents",
        summary: "Server-sent event stream",
        description:
          "Each message has `id: <event id>` (absent for ephemeral events), `event: <name>` and " +
          "`data: <EventEnvelope as JSON>`. `after` replays stored events after that id, then " +
          "goes live; it takes precedence over `Last-Event-ID`. A `resync` frame (no id, data " +
          "`{}`) means events were skipped: refetch. Comment lines `: ping` are heartbeats.",
        querystring: EventsQuery,
        security: [{ bearer: [] }, { accessToken: [] }],
        response: {
          200: {
            description: "A text/event-stream of EventEnvelope messages.",
            content: { "text/event-stream": { schema: EventEnvelope } },
          },
          401: ApiError,
          422: ApiError,
          429: ApiError,
        },
      },
    },
    (request, reply) => {
      slots.take(reply);
      return stream(options, streams, { request, reply, query: request.query });
    },
  );
  return () => streams.open.size;
}
