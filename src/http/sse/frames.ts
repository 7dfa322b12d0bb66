// The wire format of the event stream.
import type { EventRecord } from "../../engine/index.ts";
import { eventView } from "../../service/views/records.ts";

/** Tells the client it missed events and should refetch; it has no id and no envelope. */
export const RESYNC_FRAME = "event: resync\ndata: {}\n\n";
export const PING_FRAME = ": ping\n\n";

// Every subscriber of a published event gets the same record object, so its frame is built
// once and shared: with hundreds of open streams that is the bulk of the fan-out's CPU. Weak,
// so a frame lives exactly as long as its event record.
const frames = new WeakMap<EventRecord, string>();

/** One SSE message; an ephemeral event (id null) goes without an `id:` line. */
export function eventFrame(event: EventRecord): string {
  let frame = frames.get(event);
  if (frame === undefined) {
    const head = event.id === null ? "" : `id: ${event.id}\n`;
    // JSON.stringify never emits a raw newline, so the envelope is always a single data line.
    frame = `${head}event: ${event.name}\ndata: ${JSON.stringify(eventView(event))}\n\n`;
    frames.set(event, frame);
  }
  return frame;
}
