// Why a live attempt was stopped from outside its body. The abort reason tells the attempt
// runner that the stopping operation already wrote what the row should say (or, for a
// shutdown, that nothing should be written so that recovery re-runs the attempt).
export type InterruptReason =
  | "cancel"
  | "move"
  | "delete"
  | "set_status"
  | "shutdown"
  | "unregistered"
  // The attempt's outcome is recorded: whatever its body left running (an ask it stopped
  // waiting for, an agent it did not await) ends with it.
  | "ended";

export class Interrupt extends Error {
  constructor(readonly reason: InterruptReason) {
    super(`attempt interrupted: ${reason}`);
    this.name = "Interrupt";
  }
}

export const isInterrupt = (value: unknown): value is Interrupt => value instanceof Interrupt;

/** The reason every finished attempt's signal is aborted with: one instance, since an Error
 * captures a stack trace when made and this happens once per attempt. */
export const ENDED: Interrupt = new Interrupt("ended");
