// Server-sent events parsed by hand from text chunks, following the WHATWG event-stream rules
// that matter here: lines end in \n, \r\n or \r; a blank line ends a message; `:` starts a
// comment; several `data:` lines join with \n; a message with no data is not dispatched.

import type { EventEnvelope } from "./api-types.ts";

export interface SseMessage {
  /** The `id:` field, when the message had one. */
  id?: string;
  /** The `event:` field, "message" when absent. */
  event: string;
  data: string;
}

export class SseParser {
  #buffer = "";
  #id: string | undefined;
  #event = "";
  #data: string[] = [];

  /** Feeds decoded text; answers the messages it completed. */
  push(chunk: string): SseMessage[] {
    this.#buffer += chunk;
    const messages: SseMessage[] = [];
    // A trailing \r may be the first half of \r\n, so it waits for the next chunk.
    const pattern = /\r\n|\n|\r(?=[^\n])/g;
    let start = 0;
    for (let match = pattern.exec(this.#buffer); match; match = pattern.exec(this.#buffer)) {
      const message = this.#line(this.#buffer.slice(start, match.index));
      if (message) messages.push(message);
      start = match.index + match[0].length;
    }
    this.#buffer = this.#buffer.slice(start);
    return messages;
  }

  #line(line: string): SseMessage | undefined {
    if (line === "") return this.#dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.#data.push(value);
    else if (field === "event") this.#event = value;
    else if (field === "id" && !value.includes("\0")) this.#id = value;
    return undefined;
  }

  #dispatch(): SseMessage | undefined {
    const event = this.#event || "message";
    const data = this.#data;
    const id = this.#id;
    // `id` is per message here: the server sends none on ephemeral events and on resync.
    this.#event = "";
    this.#data = [];
    this.#id = undefined;
    if (data.length === 0) return undefined;
    return { ...(id === undefined ? {} : { id }), event, data: data.join("\n") };
  }
}

/** The event envelope a message carries, or undefined for anything that is not one. */
export function parseEnvelope(message: SseMessage): EventEnvelope | undefined {
  try {
    const value = JSON.parse(message.data) as EventEnvelope;
    return typeof value?.name === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}
