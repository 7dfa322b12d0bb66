// What the event stream reads: the live bus and the stored history behind it.
import type { EventBus, EventRecord } from "../../engine/index.ts";

export interface EventFeed {
  bus: EventBus;
  /** Stored events with id > `after`, oldest first, at most `limit`, optionally of one run. */
  replay(after: number, limit: number, runId?: string): Promise<EventRecord[]>;
  /** Highest stored event id (0 when none). */
  lastEventId(): Promise<number>;
}
