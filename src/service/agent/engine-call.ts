// The agent surface acts through the engine's attempt API. A command's refusal (EngineError)
// is read here as the catalogue's ServiceError, with the same code, message and fields, so the
// HTTP routes and the MCP tools (which turn a ServiceError into a tool result) see it alike.
import { fromDomain } from "../errors.ts";

export async function engineCall<T>(command: Promise<T>): Promise<T> {
  try {
    return await command;
  } catch (err) {
    throw fromDomain(err);
  }
}
