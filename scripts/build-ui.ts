// Builds the operator console (ui/dist) when it is missing or older than its sources. Vitest
// runs it as global setup, so the browser tests always drive the current UI; `npm pack` runs it
// (prepack) so the package never ships a stale console, without rebuilding
// one that tests may be serving at that moment. `npm run build:ui` always builds.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const UI = join(ROOT, "ui");
const BUILT = join(UI, "dist", "index.html");

function newest(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

export function uiIsFresh(): boolean {
  if (!existsSync(BUILT)) return false;
  const sources = ["src", "public", "index.html", "vite.config.ts"].map((p) => join(UI, p));
  // The console's API types and event names come from the generated client types.
  sources.push(join(ROOT, "src", "client", "openapi.ts"));
  const changed = Math.max(...sources.filter((p) => existsSync(p)).map(newest));
  return statSync(BUILT).mtimeMs >= changed;
}

export default function setup(): void {
  if (uiIsFresh()) return;
  const vite = join(ROOT, "node_modules", "vite", "bin", "vite.js");
  const built = spawnSync(process.execPath, [vite, "build", "ui", "--logLevel", "warn"], {
    cwd: ROOT,
    stdio: "inherit",
    timeout: 120_000,
  });
  if (built.status !== 0) throw new Error("building the operator console (vite build ui) failed");
}

// Run as a script (prepack): the same check, then the build if it is needed.
if (process.argv[1] === import.meta.filename) setup();
