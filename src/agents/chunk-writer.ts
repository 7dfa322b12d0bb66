// Storing the transcript. Agents stream token by token, so chunks are batched: a batch is
// stored every FLUSH_MS or as soon as MAX_BATCH chunks wait, and adjacent pieces of text (or of
// thought) are joined into one chunk. Each stored batch is announced by an ephemeral
// `task.stream` event carrying its seq range; the event is published, never stored.
import type { EventData } from "../engine/events.ts";
import type { AttemptHandle } from "../engine/task-context.ts";
import type { Chunk } from "./transcript.ts";

export const FLUSH_MS = 50;
export const MAX_BATCH = 32;

const JOINABLE = new Set<Chunk["kind"]>(["text", "thought"]);

export class ChunkWriter {
  readonly #pending: Chunk[] = [];
  #timer: NodeJS.Timeout | null = null;
  #chain: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(private readonly h: AttemptHandle) {}

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
      this.#chain = this.#chain.then(() => this.#store(batch)).catch(() => {});
    }
    return this.#chain;
  }

  /** Stores what waits and ignores anything pushed later. */
  close(): Promise<void> {
    const done = this.flush();
    this.#closed = true;
    return done;
  }

  async #store(batch: Chunk[]): Promise<void> {
    const { core, task } = this.h;
    const stored = await core.store.transact((tx) => tx.appendChunks(task.id, batch, Date.now()));
    if (!stored.length) return;
    core.bus.publish([
      {
        id: null,
        name: "task.stream",
        run_id: task.run_id,
        task_id: task.id,
        created: Date.now(),
        data: {
          seq_from: stored[0].seq,
          seq_to: stored.at(-1)!.seq,
        } satisfies EventData<"task.stream">,
      },
    ]);
  }
}
