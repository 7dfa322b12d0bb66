// Builds what the published package holds beside bin/ and README (`npm pack` runs it, as
// prepack): the console (ui/dist) when it is stale, and dist/, which is
//  - the JavaScript of every module in src/ (tsc rewrites the `.ts` import specifiers), which
//    the installed `yardmaster` command runs instead of compiling the sources with tsx at start;
//  - declarations for the public entries only (src/index.ts, the typed client
//    src/client/index.ts, and what their types reach): the exports map opens nothing else, so
//    declarations of the server's internals would be dead weight;
//  - Redoc's standalone bundle, the one file of the redoc package the server serves (at
//    /redoc), so that redoc and the React tree it depends on stay out of a user's install.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import buildUiIfStale from "./build-ui.ts";

const ROOT = join(import.meta.dirname, "..");
const DIST = join(ROOT, "dist");
const require = createRequire(import.meta.url);

function tsc(...args: string[]): void {
  const run = spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), ...args], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (run.status !== 0) throw new Error(`tsc ${args.join(" ")} failed`);
}

function copyRedoc(): void {
  const bundle = require.resolve("redoc/bundles/redoc.standalone.js");
  const target = join(DIST, "vendor", "redoc");
  mkdirSync(target, { recursive: true });
  for (const file of ["redoc.standalone.js", "redoc.standalone.js.LICENSE.txt"]) {
    copyFileSync(join(dirname(bundle), file), join(target, file));
  }
  copyFileSync(join(dirname(bundle), "..", "LICENSE"), join(target, "LICENSE"));
}

buildUiIfStale();
// A file removed from src/ must not linger in the package.
rmSync(DIST, { recursive: true, force: true });
tsc("-p", "tsconfig.build.json");
tsc("-p", "tsconfig.types.json");
copyRedoc();
