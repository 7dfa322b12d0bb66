// Task tokens, the credential of an attempt's agent: minted per attempt with 256 bits of
// entropy, stored only as a sha-256 hash on the attempt's row, cleared when the agent session
// ends (agent-session.ts). They never appear in an operator view, an event or a log line. One
// refusal for every bad token, so a caller learns nothing about which tasks exist.
import { createHash, randomBytes } from "node:crypto";
import { ownedRow } from "../attempt-guard.ts";
import type { EngineCore } from "../core.ts";
import type { TaskRecord } from "../domain.ts";
import { EngineError } from "../errors.ts";
import type { StoreReader } from "../store.ts";

const REFUSED = "The task token is not valid for a live attempt of this task.";

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Mints a token for a live attempt and stores its hash; answers the token itself. */
export async function issueTaskToken(core: EngineCore, task: TaskRecord): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const updated = await core.uow.run((work) =>
    work.tx.updateTask(
      task.id,
      { token_hash: hashToken(token) },
      { status: ["in_progress", "waiting"], claim: task.claim },
    ),
  );
  if (!updated) throw new Error(`attempt ${task.id} is no longer live; no token minted`);
  return token;
}

/**
 * The live attempt `token` belongs to, as it stands now; refused (`forbidden`) when no live
 * attempt has it, or when `taskId` (null: any task) is not that attempt's task.
 */
export async function attemptOfToken(
  core: EngineCore,
  taskId: number | null,
  token: string,
): Promise<TaskRecord> {
  const task = await core.store.findTaskByTokenHash(hashToken(token));
  const live = task && (task.status === "in_progress" || task.status === "waiting");
  if (!task || !live || (taskId !== null && task.id !== taskId)) {
    throw new EngineError("forbidden", REFUSED);
  }
  return task;
}

/**
 * Inside the unit of work that writes for an agent: the attempt `task` (as its token resolved
 * when the call arrived) is still live with the same token. The check on arrival is a read
 * outside that unit; a cancel, move or delete committed in between ended the attempt, and the
 * token died with it (`forbidden`), rather than storing a write nobody will consume after the
 * run's last event.
 */
export async function requireTokenLive(tx: StoreReader, task: TaskRecord): Promise<void> {
  const row = await ownedRow(tx, task.id, task.claim);
  if (row?.token_hash !== task.token_hash) throw new EngineError("forbidden", REFUSED);
}
