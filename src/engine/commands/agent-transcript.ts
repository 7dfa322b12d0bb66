// Storing a batch of an agent's transcript. This is the runner's hot path (agents stream token
// by token): one transaction per batch, straight on the store, with no events stored. The batch
// is announced by an ephemeral `task.stream` event carrying its seq range, published once the
// chunks are committed and never stored.
import type { EngineCore } from "../core.ts";
import type { StreamChunkRecord, TaskRecord } from "../domain.ts";
import type { EventData } from "../events.ts";

export type TranscriptChunk = Pick<StreamChunkRecord, "kind" | "text">;

export async function appendTranscript(
  core: EngineCore,
  task: TaskRecord,
  batch: readonly TranscriptChunk[],
): Promise<void> {
  const stored = await core.store.transact((tx) =>
    tx.appendChunks(task.id, batch, core.clock.now()),
  );
  if (!stored.length) return;
  core.bus.publish([
    {
      id: null,
      name: "task.stream",
      run_id: task.run_id,
      task_id: task.id,
      created: core.clock.now(),
      data: {
        seq_from: stored[0].seq,
        seq_to: stored.at(-1)!.seq,
      } satisfies EventData<"task.stream">,
    },
  ]);
}
