// The plugin data publish: a plugin action or panel announces `plugin.<workflow>.<name>` with
// data the event stream can carry. It writes no row but the event, stored and published as any
// other, so it goes through a unit of work like every state change.

import { publishData } from "../context-inputs.ts";
import type { EngineCore } from "../core.ts";

/** The run and task a plugin call is scoped to; the event carries them. */
export interface PublishScope {
  run_id: string | null;
  task_id: number | null;
}

/** Publishes `plugin.<workflow>.<name>`; throws for a name or data the stream could not carry. */
export async function publishPluginEvent(
  core: EngineCore,
  workflow: string,
  name: unknown,
  data: unknown,
  scope: PublishScope,
): Promise<void> {
  const stored = publishData(name, data);
  await core.uow.run(async (work) => {
    work.emit(`plugin.${workflow}.${name}`, scope.run_id, scope.task_id, stored);
  });
}
