// Crash safety: a SIGKILLed engine process loses nothing it committed and applies nothing twice;
// a graceful stop lists interrupted attempts, which the next start re-runs.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/authoring/index.ts";
import { openSqliteStore } from "../../src/stores/sqlite/index.ts";
import { gate, type Harness, startHarness } from "../support/engine-harness.ts";

const worker = join(import.meta.dirname, "..", "support", "crash-worker.ts");

const output = new WeakMap<ChildProcess, { text: string }>();

function launch(file: string, ...args: string[]): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", worker, file, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  // Everything the child printed, from its first byte: a line may come before anyone waits.
  const seen = { text: "" };
  output.set(child, seen);
  child.stdout!.on("data", (chunk: Buffer) => {
    seen.text += chunk.toString();
  });
  return child;
}

function waitForLine(child: ChildProcess, pattern: RegExp, ms = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no line ${pattern} within ${ms} ms`)), ms);
    const seen = output.get(child)!;
    const check = () => {
      if (!pattern.test(seen.text)) return;
      clearTimeout(timer);
      resolve();
    };
    check();
    child.stdout!.on("data", check);
    child.on("exit", () => {
      clearTimeout(timer);
      if (!pattern.test(seen.text)) reject(new Error(`exited before ${pattern}`));
    });
  });
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("recovery", () => {
  it("a SIGKILL mid-load loses no run and applies no transition twice", {
    timeout: 60_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "ym-crash-"));
    const file = join(dir, "store.db");
    const runs = 300;
    const first = launch(file, "submit", String(runs));
    await waitForLine(first, /submitted/);
    await waitForLine(first, /progress 20\n/);
    first.kill("SIGKILL");
    await new Promise((r) => first.on("exit", r));
    const second = launch(file, "recover");
    await waitForLine(second, /idle/, 40_000);
    const store = await openSqliteStore(file);
    const all = await store.listRuns();
    expect(all).toHaveLength(runs);
    expect(all.every((r) => r.status === "completed")).toBe(true);
    for (const run of all) {
      const tasks = await store.listTasks({ run_id: run.id });
      const done = tasks.filter((t) => t.status === "done").map((t) => t.node);
      expect(done.sort()).toEqual(["a", "b", "c"]);
      const events = await store.listEvents({ run_id: run.id, limit: 1000 });
      const completions = events.filter((e) => e.name === "run.completed");
      expect(completions).toHaveLength(1);
      expect(completions[0].data.output).toBe((Number(run.title) + 1) * 2);
      const doneIds = events.filter((e) => e.name === "task.done").map((e) => e.task_id);
      expect(new Set(doneIds).size).toBe(doneIds.length);
    }
    const recovered = await store.listEvents({ limit: 100_000 });
    expect(recovered.some((e) => e.name === "engine.recovered")).toBe(true);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("stop lists interrupted attempts in engine.stopping; the next start re-runs them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ym-stop-"));
    const hold = gate();
    let calls = 0;
    const define = () => {
      const wf = workflow("stoppable");
      wf.node({ start: true }, async function a({}: any, _p: unknown, ctx: any) {
        calls += 1;
        if (calls === 1)
          await Promise.race([
            hold.promise,
            new Promise((r) => ctx.signal.addEventListener("abort", r)),
          ]);
        return calls;
      });
      return wf;
    };
    h = await startHarness({ dir });
    h.register(define());
    const { run_id } = await h.service.submitRun("stoppable", { title: "t" });
    const started = await h.waitEvent("task.started", (e) => e.run_id === run_id);
    const interrupted = await h.engine.stop();
    expect(interrupted).toEqual([started.task_id]);
    expect(h.named("engine.stopping")[0]).toMatchObject({
      run_id: null,
      data: { task_ids: [started.task_id] },
    });
    // A server of a shared store (PostgreSQL) hands its attempts back as it stops; the only
    // server of a SQLite file leaves them for the next start.
    const shared = h.engine.cluster;
    if (shared) {
      expect(h.named("engine.recovered")[0].data).toEqual({
        task_ids: [started.task_id],
        server_id: shared.id,
      });
    }
    await h.store.close();
    h = await startHarness({ dir, start: false });
    h.register(define());
    await h.engine.start();
    const done = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(done.data.output).toBe(2);
    if (!shared) {
      expect(h.named("engine.recovered")[0].data).toEqual({ task_ids: [started.task_id] });
    }
    const task = await h.service.getTask(started.task_id!);
    expect(task.attempt).toBe(1);
  });
});
