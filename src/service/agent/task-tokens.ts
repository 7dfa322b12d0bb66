// The task token on the agent surface: the header that carries it, and the check every agent
// call makes before anything else about the request is read. Minting, hashing and judging a
// token are the engine's (attempt API, engine/commands/attempt-token.ts).
import { attemptOfToken, type EngineCore, type TaskRecord } from "../../engine/index.ts";
import { commanded, ServiceError } from "../errors.ts";

export const TOKEN_HEADER = "x-service-token";

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
  return commanded(attemptOfToken(core, taskId, token));
}
