// W1 against the package as a user installs it, for its memory (issue 26: peak RSS under 200 MiB,
// every child process included):
//   node --import tsx bench/package-rss.ts [repetitions]
// `npm pack` of this checkout, installed offline into a fresh project (test/support's consumer
// project), the bench's workflows copied in as a workflow file of that project, then per
// repetition: `yardmaster serve` from the project's node_modules on a fresh SQLite file (the
// compiled JavaScript, no tsx loader for the server's own code), W1's 2,000 `chain3` runs at 64
// submits in flight, and the peak RSS (VmHWM) of the server and of every child it started
// (sampled every 50 ms) printed as one JSON line. The server from the sources is what
// `npm run bench` measures.
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installConsumer, packYardmaster } from "../test/support/consumer-project.ts";
import { Completions, submitMany } from "./completions.ts";
import { HttpClient } from "./http-client.ts";

const RUNS = 2000;
const repetitions = Number(process.argv[2] ?? 3);

function peakMib(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024;
}

function childrenOf(pid: number): number[] {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return text ? text.split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`serve did not listen: ${text}`)), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const found = /listening on (\S+)/.exec(text);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${text}`)));
  });
}

async function round(project: string, store: string) {
  const bin = join(project, "node_modules", "yardmaster", "bin", "yardmaster.mjs");
  const child = spawn(process.execPath, [bin, "serve", "--store", `sqlite:${store}`], {
    cwd: project,
    env: { ...process.env, YARDMASTER_LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const url = await listening(child);
    const pid = child.pid!;
    const idle = peakMib(pid);
    const children = new Map<number, number>();
    const sample = setInterval(() => {
      for (const kid of childrenOf(pid)) {
        try {
          children.set(kid, Math.max(children.get(kid) ?? 0, peakMib(kid)));
        } catch {
          // gone between the listing and the read
        }
      }
    }, 50);
    const ends = await Completions.open(url);
    const started = performance.now();
    const sent = await submitMany(new HttpClient(url), "chain3", RUNS, 64, (i) => `r${i}`);
    await ends.waitFor(sent.sentAt.keys(), 300_000);
    const wallMs = performance.now() - started;
    clearInterval(sample);
    return {
      steps_per_s: Math.round((RUNS * 3 * 1000) / wallMs),
      idle_rss_mib: Math.round(idle),
      server_peak_rss_mib: Math.round(peakMib(pid)),
      children_peak_rss_mib: [...children.values()].map(Math.round),
    };
  } finally {
    child.kill("SIGTERM");
  }
}

const scratch = mkdtempSync(join(tmpdir(), "ym-package-rss-"));
try {
  const project = join(scratch, "project");
  await installConsumer(project, (await packYardmaster(scratch)).tarball);
  mkdirSync(join(project, "workflows"));
  copyFileSync(join(import.meta.dirname, "workflows.ts"), join(project, "workflows", "bench.ts"));
  writeFileSync(
    join(project, "yardmaster.toml"),
    [
      "[server]",
      'host = "127.0.0.1"',
      "port = 0",
      "",
      "[pools.w1]",
      "capacity = 8",
      "",
      "[workflows.chain3]",
      'target = "workflows/bench.ts:chain3"',
      'pool = "w1"',
      "",
    ].join("\n"),
  );
  for (let i = 1; i <= repetitions; i++) {
    const result = await round(project, join(scratch, `store-${i}.db`));
    process.stdout.write(`${JSON.stringify({ workload: "W1, installed package", ...result })}\n`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
