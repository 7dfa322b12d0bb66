// Steering one task: `retry TASK`, `move TASK NODE`, `set-status TASK STATUS`. The registry
// loads this module for each of them and picks the export by name.
import type { Ok, TaskRef } from "../client/api-types.ts";
import { clientCommand, idArgument, printJson, seg } from "../client/command-kit.ts";
import { UsageError } from "../parse-args.ts";

/** What an operator may write; the server refuses the rest too, but a typo is a usage error. */
const OPERATOR_STATUSES = ["ready", "cancelled", "dead_letter"];

export const retry = clientCommand("retry", {
  positionals: ["TASK"],
  async run({ client, args, io, json }) {
    const task = idArgument(args[0], "TASK");
    const ref = await client.post<TaskRef>(`/api/tasks/${seg(task)}/retry`);
    if (json) return void printJson(io, ref);
    io.out(`Task #${ref.task_id} enqueued: the next attempt of task #${task}.`);
    return undefined;
  },
});

export const move = clientCommand("move", {
  positionals: ["TASK", "NODE"],
  async run({ client, args, io, json }) {
    const task = idArgument(args[0], "TASK");
    const node = args[1];
    const ref = await client.post<TaskRef>(`/api/tasks/${seg(task)}/move`, { node });
    if (json) return void printJson(io, ref);
    io.out(`Task #${task} cancelled and its payload enqueued at ${node} as task #${ref.task_id}.`);
    return undefined;
  },
});

export const setStatus = clientCommand("set-status", {
  positionals: ["TASK", "STATUS"],
  async run({ client, args, io, json }) {
    const task = idArgument(args[0], "TASK");
    const status = args[1];
    if (!OPERATOR_STATUSES.includes(status)) {
      throw new UsageError(`STATUS must be one of ${OPERATOR_STATUSES.join(", ")}`);
    }
    const ok = await client.post<Ok>(`/api/tasks/${seg(task)}/status`, { status });
    if (json) return void printJson(io, ok);
    io.out(`Task #${task} set to ${status}${ok.note ? `: ${ok.note}` : "."}`);
    return undefined;
  },
});
