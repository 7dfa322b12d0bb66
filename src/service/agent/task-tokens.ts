// Task tokens: minted per attempt with 256 bits of entropy, stored only as a sha-256 hash on the
// attempt's row, cleared when the attempt ends. They never appear in an operator view, an event
// or a log line. One refusal message for every bad token, so a caller learns nothing about
// which tasks exist.
import { createHash, randomBytes } from "node:crypto";
import { ownedRow } from "../../engine/attempt-guard.ts";
import type { EngineCore } from "../../engine/core.ts";
import type { TaskRecord } from "../../engine/domain.ts";
import type { StoreReader } from "../../engine/store.ts";
import { ServiceError } from "../errors.ts";

export const TOKEN_HEADER = "x-service-token";
const REFUSED = "The task token is not valid for a live attempt of this task.";

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Mints a token for a live attempt and stores its hash; answers the token itself. */
export async function mintTaskToken(core: EngineCore, task: TaskRecord): Promise<string> {
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

/** Resolves the attempt a token belongs to, or refuses (422 when absent, 403 otherwise). */
export async function authorizeTask(
  core: EngineCore,
  taskId: number | null,
  token: string | undefined,
): Promise<TaskRecord> {
  // Only an absent header is "missing"; an empty value was presented, and is refused below.
  if (token === undefined) {
    throw new ServiceError("validation", "Header X-Service-Token is required.", {
      errors: [{ loc: ["header", TOKEN_HEADER], msg: "Field required", type: "missing" }],
    });
  }
  const task = await core.store.findTaskByTokenHash(hashToken(token));
  const live = task && (task.status === "in_progress" || task.status === "waiting");
  if (!task || !live || (taskId !== null && task.id !== taskId)) {
    throw new ServiceError("forbidden", REFUSED);
  }
  return task;
}

/**
 * Inside the unit of work that writes for an agent: the attempt `task` (as authorized when the
 * call arrived) is still live with the same token. The check on arrival is a read outside that
 * unit; a cancel, move or delete committed in between ended the attempt, and the token died
 * with it (403), rather than storing a write nobody will consume after the run's last event.
 */
export async function requireStillLive(tx: StoreReader, task: TaskRecord): Promise<void> {
  const row = await ownedRow(tx, task.id, task.claim);
  if (row?.token_hash !== task.token_hash) throw new ServiceError("forbidden", REFUSED);
}
