// Steering one task: `retry TASK`, `move TASK NODE`, `set-status TASK STATUS`. The registry
// loads this module for each of them and picks the export by name.
import type { OperatorStatus } from "../client/api-types.ts";
import { clientCommand, idArgument, printJson } from "../client/command-kit.ts";
import { UsageError } from "../parse-args.ts";

/** What an operator may write; the server refuses the rest too, but a typo is a usage error. */
const OPERATOR_STATUSES: readonly OperatorStatus[] = ["ready", "cancelled", "dead_letter"];
const isOperatorStatus = (value: string): value is OperatorStatus =>
  (OPERATOR_STATUSES as readonly string[]).includes(value);

export const retry = clientCommand("retry", {
  positionals: ["TASK"],
  async run({ client, args, io, json }) {
    const task = idArgument(args[0], "TASK");
    const ref = await client.post("/api/tasks/{task_id}/retry", { params: { task_id: task } });
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
    const ref = await client.post("/api/tasks/{task_id}/move", {
      params: { task_id: task },
      body: { node },
    });
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
    if (!isOperatorStatus(status)) {
      throw new UsageError(`STATUS must be one of ${OPERATOR_STATUSES.join(", ")}`);
    }
    const ok = await client.post("/api/tasks/{task_id}/status", {
      params: { task_id: task },
      body: { status },
    });
    if (json) return void printJson(io, ok);
    io.out(`Task #${task} set to ${status}${ok.note ? `: ${ok.note}` : "."}`);
    return undefined;
  },
});
