// A V8 CPU profile of the serving window only: started once the server listens and stopped
// before it shuts down, so neither module loading nor shutdown is in the figures (what
// `node --cpu-prof` records from process start to exit, on every thread, tsx's loader worker
// included). Same profiler, same .cpuprofile format (open it in Chrome DevTools or summarize it
// with bench/profile-summary.ts).
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

/** Starts sampling every `intervalUs` microseconds; answers the function that writes `file`. */
export async function startCpuProfile(
  file: string,
  intervalUs = 250,
): Promise<() => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: intervalUs });
  await session.post("Profiler.start");
  return async () => {
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    writeFileSync(file, JSON.stringify(profile));
  };
}
