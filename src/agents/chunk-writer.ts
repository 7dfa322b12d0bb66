// Storing the transcript. Agents stream token by token, so chunks are batched: a batch is
// stored every FLUSH_MS or as soon as MAX_BATCH chunks wait, and adjacent pieces of text (or of
// thought) are joined into one chunk. Each batch is one transaction of the attempt API
// (`appendTranscript`), announced by an ephemeral `task.stream` event.
import type { AttemptCommands } from "../engine/index.ts";
import type { Chunk } from "./transcript.ts";

export const FLUSH_MS = 50;
export const MAX_BATCH = 32;

const JOINABLE = new Set<Chunk["kind"]>(["text", "thought"]);

export class ChunkWriter {
  readonly #pending: Chunk[] = [];
  #timer: NodeJS.Timeout | null = null;
  #chain: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(private readonly attempt: AttemptCommands) {}

  push(chunk: Chunk): void {
    if (this.#closed || chunk.text === "") return;
    const last = this.#pending.at(-1);
    if (last && last.kind === chunk.kind && JOINABLE.has(chunk.kind)) {
      last.text += chunk.text;
      return;
    }
    this.#pending.push({ ...chunk });
    if (this.#pending.length >= MAX_BATCH) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Stores what waits; resolves once every batch handed over so far is stored. */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const batch = this.#pending.splice(0);
    if (batch.length) {
      // A failed write (the run was deleted meanwhile) loses that batch, never the attempt.
      this.#chain = this.#chain.then(() => this.attempt.appendTranscript(batch)).catch(() => {});
    }
    return this.#chain;
  }

  /** Stores what waits and ignores anything pushed later. */
  close(): Promise<void> {
    const done = this.flush();
    this.#closed = true;
    return done;
  }
}
