// The child process behind source-scan-client.ts: it loads the TypeScript compiler, answers
// scan requests over IPC, and exits when its parent lets go of it. Plain JavaScript, because
// from the sources it is the process that installs the TypeScript loader (tsx) before importing
// the scanner; compiled (dist/, where the import below names source-scan.js) it needs none.
import { existsSync } from "node:fs";

if (existsSync(new URL("./source-scan.ts", import.meta.url))) {
  const { register } = await import("tsx/esm/api");
  register();
}
const { scanNodes } = await import("./source-scan.ts");

process.on("message", (request) => {
  const { id, file, text, receiver } = request;
  try {
    process.send?.({ id, nodes: [...scanNodes(file, text, receiver)] });
  } catch (err) {
    process.send?.({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
process.on("disconnect", () => process.exit(0));
process.send?.({ ready: true });
