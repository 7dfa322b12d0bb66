// Steering one run: `cancel`, `pause`, `resume`, `delete RUN` and `rerun RUN NODE`. The registry
// loads this module for each of them and picks the export by name.
import { clientCommand, printJson } from "../client/command-kit.ts";

type Verb = "cancel" | "pause" | "resume";

const PAST: Record<Verb, string> = { cancel: "cancelled", pause: "paused", resume: "resumed" };

function steer(verb: Verb) {
  return clientCommand(verb, {
    positionals: ["RUN"],
    async run({ client, args, io, json }) {
      const ok = await client.post(`/api/runs/{run_id}/${verb}`, { params: { run_id: args[0] } });
      if (json) return void printJson(io, ok);
      io.out(`Run ${args[0]} ${PAST[verb]}${ok.note ? `: ${ok.note}` : "."}`);
      return undefined;
    },
  });
}

export const cancel = steer("cancel");
export const pause = steer("pause");
export const resume = steer("resume");

/** DELETE answers 204 with no body, so --json prints nothing and the exit code says it all. */
export const remove = clientCommand("delete", {
  positionals: ["RUN"],
  async run({ client, args, io, json }) {
    await client.delete("/api/runs/{run_id}", { params: { run_id: args[0] } });
    if (!json) io.out(`Run ${args[0]} deleted.`);
    return undefined;
  },
});

export const rerun = clientCommand("rerun", {
  positionals: ["RUN", "NODE"],
  async run({ client, args, io, json }) {
    const [runId, node] = args;
    const ref = await client.post("/api/runs/{run_id}/rerun", {
      params: { run_id: runId },
      body: { node },
    });
    if (json) return void printJson(io, ref);
    io.out(`Task #${ref.task_id} enqueued: a fresh attempt of ${node} in run ${runId}.`);
    return undefined;
  },
});
