// Starts bench/floor/chain-floor-server.ts in a process of its own (through tsx) and answers it
// with the port it reports by IPC; the caller kills it.
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";

export async function forkFloorServer(
  args: string[],
  timeoutMs = 30_000,
): Promise<{ child: ChildProcess; port: number }> {
  const script = fileURLToPath(new URL("./chain-floor-server.ts", import.meta.url));
  const child = fork(script, args, { execArgv: ["--import", "tsx"] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("floor server did not start")), timeoutMs);
      child.once("message", (m: { port: number }) => {
        clearTimeout(timer);
        resolve(m.port);
      });
      child.once("exit", (code) => reject(new Error(`floor server exited with ${code}`)));
    });
    return { child, port };
  } catch (err) {
    child.kill();
    throw err;
  }
}
