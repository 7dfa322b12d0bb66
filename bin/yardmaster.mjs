#!/usr/bin/env node
// Entry point of the `yardmaster` command. The sources are TypeScript run through tsx,
// which is also what loads workflow files at run time, so one loader serves both.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
