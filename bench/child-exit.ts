// How a bench child process (the server, a peer's worker) ends: on SIGTERM, SIGINT or its
// parent closing stdin, it runs `stop` once and exits 0; a stop that hangs is cut off after
// 10 s with exit code 2, so a driver's every wait on its child stays bounded.
export function exitWhenTold(stop: () => Promise<void>): void {
  let stopping = false;
  const end = async () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(2), 10_000);
    await stop();
    clearTimeout(force);
    process.exit(0);
  };
  process.on("SIGTERM", end);
  process.on("SIGINT", end);
  process.stdin.on("end", end);
  process.stdin.on("error", end);
  process.stdin.resume();
}
