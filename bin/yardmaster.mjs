#!/usr/bin/env node
// Entry point of the `yardmaster` command. A clone has the TypeScript sources, which run
// through tsx so that they are always current without a build step; the published package
// ships only their compiled JavaScript (dist/), which starts without compiling anything.
// Workflow files are TypeScript either way: the loader imports them through tsx on its own.
import { existsSync } from "node:fs";

const source = new URL("../src/cli/main.ts", import.meta.url);
let main;
if (existsSync(source)) {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = await import("../dist/cli/main.js"));
}
const argv = process.argv.slice(2);
const code = await main(argv);
process.exitCode = code;
// Once `serve` has stopped (engine, HTTP server and store closed), nothing of the service is
// left to wait for. A workflow body that ignores ctx.signal may still hold a timer or a socket,
// and would keep the process alive until it ends: a stop must not wait on user code.
if (argv[0] === "serve") process.exit(code);
