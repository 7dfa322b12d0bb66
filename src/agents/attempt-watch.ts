// What the runner hears about its attempt on the event bus while a session runs: refused
// submissions (they make the next repair prompt say `rejected`), and the attempt ending while
// the call still runs (a body that did not await it), which must end the agent too.
import type { AttemptHandle } from "../engine/task-context.ts";

const ATTEMPT_ENDED = new Set(["task.done", "task.failed", "task.dead_lettered"]);

export interface AttemptWatcher {
  rejected(errors: unknown): void;
  ended(): void;
}

/** Starts listening; answers the function that stops it. */
export function watchAttempt(h: AttemptHandle, watcher: AttemptWatcher): () => void {
  const unsubscribe = h.core.bus.subscribe((e) => {
    if (e.task_id !== h.task.id) return;
    if (e.name === "submission.rejected") watcher.rejected(e.data.errors);
    else if (ATTEMPT_ENDED.has(e.name)) watcher.ended();
  });
  return () => {
    unsubscribe();
  };
}
