// The closed event vocabulary (http-api.md, Events). An EventSource delivers a named event only
// to listeners of that exact name, so the stream subscribes to each of these by name.
export const EVENT_NAMES = [
  "run.created",
  "run.started",
  "run.updated",
  "run.reordered",
  "run.paused",
  "run.resumed",
  "run.cancelled",
  "run.deleted",
  "run.completed",
  "run.failed",
  "task.enqueued",
  "join.arrived",
  "task.started",
  "task.done",
  "task.failed",
  "task.dead_lettered",
  "task.waiting",
  "task.resumed",
  "task.cancelled",
  "task.moved",
  "task.status_set",
  "task.stream",
  "submission.accepted",
  "submission.rejected",
  "submission.repair",
  "request.opened",
  "request.answered",
  "log.appended",
  "agent.stats",
  "engine.recovered",
  "engine.stopping",
  "workflow.registered",
  "workflow.replaced",
  "workflow.unregistered",
] as const;

/** `*` matches exactly one dotted segment, as the server's `names` filter reads it. */
export function globMatches(glob: string, name: string): boolean {
  const g = glob.split(".");
  const n = name.split(".");
  return g.length === n.length && g.every((part, i) => part === "*" || part === n[i]);
}

export const matchesAny = (globs: readonly string[], name: string) =>
  globs.some((g) => globMatches(g, name));
