// Starts bench/floor/floor-server.ts in a process of its own (through tsx) and answers it
// with the port it reports by IPC; the caller kills it. FLOOR_PG_PROFILE=<dir>: through
// `--cpu-prof` into that folder (the profile is written when the caller asks the floor to exit).
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";

export async function forkFloorServer(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 30_000,
): Promise<{ child: ChildProcess; port: number }> {
  const script = fileURLToPath(new URL("./floor-server.ts", import.meta.url));
  const profile = process.env.FLOOR_PG_PROFILE;
  const execArgv = [
    "--import",
    "tsx",
    ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : []),
  ];
  const child = fork(script, args, { execArgv, env });
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
