// A real engine process for the crash test: `submit N` queues N runs of a 3-node chain and
// works on them; `recover` only works on what the store holds. It prints `progress <k>`
// whenever a run completes so the test can SIGKILL it mid-load.
import { workflow } from "../../src/authoring/index.ts";
import { Engine } from "../../src/engine/index.ts";
import { openSqliteStore } from "../../src/stores/sqlite/index.ts";

const [file, mode, count] = process.argv.slice(2);
const store = await openSqliteStore(file);
const engine = new Engine({ store, pools: { default: { capacity: 4 } } });
const wf = workflow("crashy");
wf.node({ start: true }, async function a({ b }: any, input: { title: string }) {
  await new Promise((r) => setTimeout(r, 2));
  return b(Number(input.title));
});
wf.node(async function b({ c }: any, n: number) {
  await new Promise((r) => setTimeout(r, 2));
  return n + 1;
});
wf.node(async function c({}: any, n: number) {
  return n * 2;
});
engine.register({
  name: "crashy",
  graph: wf.finalize(),
  workflow: wf,
  pool: "default",
  target: null,
  file: null,
  loaded: null,
});
let completed = 0;
engine.bus.subscribe((e) => {
  if (e.name === "run.completed") process.stdout.write(`progress ${++completed}\n`);
});
await engine.start();
if (mode === "submit") {
  for (let i = 0; i < Number(count); i++)
    await engine.commands.submitRun("crashy", { title: String(i) });
  process.stdout.write("submitted\n");
}
// Stay alive until killed (submit mode) or until everything ended (recover mode).
const timer = setInterval(async () => {
  if (mode !== "recover") return;
  const open = await store.listRuns({ status: "running" });
  const queued = await store.listRuns({ status: "queued" });
  if (!open.length && !queued.length) {
    clearInterval(timer);
    await engine.stop();
    await store.close();
    process.stdout.write("idle\n");
  }
}, 20);
