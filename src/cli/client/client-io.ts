// What client commands need beyond CliIo: the environment, whether stdout is a terminal, and a
// way to stop a long wait. Each is optional so `main(argv, io)` works with a plain CliIo; tests
// pass their own values instead of touching the real process.
import type { CliIo } from "../cli-io.ts";

export interface ClientIo extends CliIo {
  /** Variables such as YARDMASTER_URL; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Whether stdout is a terminal (colours); defaults to process.stdout.isTTY. */
  stdoutIsTty?: boolean;
  /** Whether stderr is a terminal (`serve`'s readable log lines); defaults to process.stderr.isTTY. */
  stderrIsTty?: boolean;
  /** Aborting it stops `tail` and `submit --wait` as SIGINT does. */
  signal?: AbortSignal;
}

/** The server could not be reached, did not answer in time, or failed (5xx). */
export const EXIT_UNREACHABLE = 3;
/** A wait stopped by SIGINT, as shells report a process ended by it (128 + 2). */
export const EXIT_INTERRUPTED = 130;

export function envOf(io: CliIo): Record<string, string | undefined> {
  return (io as ClientIo).env ?? process.env;
}

/** Colours only on a terminal, and never when NO_COLOR is set to a non-empty value (no-color.org). */
export function colourWanted(io: CliIo): boolean {
  const tty = (io as ClientIo).stdoutIsTty ?? process.stdout.isTTY === true;
  const noColour = envOf(io).NO_COLOR;
  return tty && (noColour === undefined || noColour === "");
}

/**
 * A signal aborted by SIGINT (and by the io's own signal); `dispose` removes the handler so a
 * finished command leaves the process as it found it.
 */
export function interruptSignal(io: CliIo): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSigint = () => controller.abort(new Interrupted());
  process.once("SIGINT", onSigint);
  const outer = (io as ClientIo).signal;
  const onOuter = () => controller.abort(new Interrupted());
  if (outer?.aborted) onOuter();
  outer?.addEventListener("abort", onOuter, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      process.off("SIGINT", onSigint);
      outer?.removeEventListener("abort", onOuter);
    },
  };
}

/** The operator asked to stop (SIGINT or the io's signal). */
export class Interrupted extends Error {
  constructor() {
    super("interrupted");
    this.name = "Interrupted";
  }
}
