// Which cached queries an event makes stale. Events arrive in bursts (a fan-out enqueues many
// tasks at once), so keys are collected and refetched together at most every 150 ms.
import type { EventEnvelope } from "../api/types.ts";
import { onStream } from "./event-stream.ts";
import { invalidate, invalidateAll } from "./query-cache.ts";

const pending = new Set<string>();
let timer: ReturnType<typeof setTimeout> | undefined;

function schedule(keys: string[]): void {
  for (const k of keys) pending.add(k);
  if (timer !== undefined) return;
  timer = setTimeout(() => {
    timer = undefined;
    const keys = [...pending];
    pending.clear();
    invalidate(keys);
  }, 150);
}

/** Query key prefixes an event touches. Keys are "<kind>/<id>" (see the views' useQuery calls). */
export function keysFor(event: EventEnvelope): string[] {
  const run = event.run_id ?? null;
  const task = event.task_id ?? null;
  const [family] = event.name.split(".");
  const runKeys = run ? [`run/${run}`, `graph/${run}`, `events/${run}`] : [];
  const taskKeys = task !== null ? [`task/${task}`] : [];
  switch (family) {
    case "run":
      return ["runs", "health", "inbox", ...runKeys, ...(run ? [`requests/${run}`] : [])];
    case "task":
    case "join":
      return [
        "runs",
        "health",
        "inbox",
        ...runKeys,
        ...taskKeys,
        ...(run ? [`requests/${run}`] : []),
      ];
    case "request":
      return ["runs", "inbox", ...runKeys, ...(run ? [`requests/${run}`] : [])];
    case "log":
      return run ? [`log/${run}`, `events/${run}`] : [];
    case "submission":
    case "agent":
      return [...runKeys, ...taskKeys];
    case "workflow":
      // A run shows whether its workflow is registered, and draws that workflow's graph. Once
      // it is removed the graph is not asked for (it would be a 404): the run says so.
      return [
        "workflows",
        "workflow/",
        "source/",
        "plugins",
        "runs",
        "run/",
        ...(event.name === "workflow.unregistered" ? [] : ["graph/"]),
      ];
    default:
      return runKeys;
  }
}

let installed = false;
/** Routes stream signals to the cache: events by their keys, resync and restart to everything. */
export function installInvalidation(): void {
  if (installed) return;
  installed = true;
  onStream((signal) => {
    if (signal.type === "resync" || signal.type === "restart") invalidateAll();
    else if (signal.type === "event") {
      const { event } = signal;
      if (event.name === "task.stream") return; // transcripts follow these themselves
      if (event.name.startsWith("engine.")) invalidateAll();
      else schedule(keysFor(event));
    }
  });
}
