// Where a command writes and which folder it works in. Commands take this instead of using
// `process` directly so tests can run them in-process and read what they printed.

export interface CliIo {
  cwd: string;
  /** One line to stdout (results, and the one line scripts parse). */
  out(line: string): void;
  /** One line to stderr (progress, logs, problems). */
  err(line: string): void;
}

/**
 * A reader that closed stdout (`yardmaster runs | head -1`) has taken what it wanted: the
 * command ends quietly with 0, as a Unix filter does, instead of crashing on EPIPE.
 */
let endsOnClosedStdout = false;
function endOnClosedStdout(): void {
  // A flag, not listenerCount: the loader's worker thread already pipes into stdout.
  if (endsOnClosedStdout) return;
  endsOnClosedStdout = true;
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(EXIT_OK);
    throw err;
  });
}

export function processIo(): CliIo {
  endOnClosedStdout();
  return {
    cwd: process.cwd(),
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  };
}

/** Exit codes: 0 done, 1 the command failed, 2 the command line was wrong. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
