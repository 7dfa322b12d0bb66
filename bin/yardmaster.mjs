#!/usr/bin/env node
// Entry point of the `yardmaster` command. The sources are TypeScript run through tsx,
// which is also what loads workflow files at run time, so one loader serves both.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
const argv = process.argv.slice(2);
const code = await main(argv);
process.exitCode = code;
// Once `serve` has stopped (engine, HTTP server and store closed), nothing of the service is
// left to wait for. A workflow body that ignores ctx.signal may still hold a timer or a socket,
// and would keep the process alive until it ends: a stop must not wait on user code.
if (argv[0] === "serve") process.exit(code);
