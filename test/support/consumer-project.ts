// A user's project with Yardmaster installed from its packed tarball, as `npm install yardmaster`
// would install it, but offline: everything comes from npm's cache, which `npm ci` filled. The
// network stays closed (a dead proxy as well as --offline), so the test cannot pass by fetching.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const ROOT = join(import.meta.dirname, "..", "..");
const run = promisify(execFile);

/** Nothing of the process listens here: any request that leaves npm fails at once. */
const DEAD_PROXY = "http://127.0.0.1:9";

/**
 * The environment for npm and the consumer's commands: without the npm_* variables of an
 * enclosing `npm test` (which name this repository as the project, and its policies), but with
 * the npm settings that say where the cache is and how to reach it.
 */
export function consumerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const keep = new Set(["cache", "userconfig", "globalconfig", "cafile", "nodedir", "registry"]);
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const npm = /^npm_config_(.*)$/.exec(key);
    if (npm ? keep.has(npm[1]!) : !/^(npm_|INIT_CWD$)/.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command; a failure carries its output. */
export async function sh(
  cwd: string,
  file: string,
  args: string[],
  env = consumerEnv(),
): Promise<string> {
  try {
    const { stdout } = await run(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(" ")} failed in ${cwd}:\n${stdout}\n${stderr}`);
  }
}

export interface Packed {
  tarball: string;
  files: string[];
  size: number;
}

/** `npm pack` of this repository (its prepack builds dist/) into `dest`. */
export async function packYardmaster(dest: string): Promise<Packed> {
  // Only the JSON report goes to stdout; prepack's own output goes to stderr.
  const out = await sh(ROOT, "npm", ["pack", "--json", "--pack-destination", dest]);
  const [report] = JSON.parse(out) as Array<{
    filename: string;
    size: number;
    files: Array<{ path: string }>;
  }>;
  return {
    tarball: join(dest, report!.filename),
    files: report!.files.map((f) => f.path),
    size: report!.size,
  };
}

/**
 * The consumer's package-lock.json: this repository's, with the consumer as its root. npm keeps
 * each dependency of yardmaster at the version locked here (the tarballs `npm ci` cached) and
 * drops what the consumer does not need. Every entry names its tarball, so that npm takes it
 * from the cache by its integrity and never asks for a package's registry document.
 */
function consumerLock(root: Record<string, unknown>): unknown {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
  const registry = (process.env.npm_config_registry ?? "https://registry.npmjs.org/").replace(
    /\/?$/,
    "/",
  );
  for (const [path, entry] of Object.entries<Record<string, unknown>>(lock.packages)) {
    if (!path || entry.resolved || entry.link) continue;
    const name = (entry.name as string) ?? path.slice(path.lastIndexOf("node_modules/") + 13);
    entry.resolved = `${registry}${name}/-/${name.split("/").pop()}-${entry.version}.tgz`;
  }
  lock.packages[""] = root;
  return { ...lock, name: root.name, version: root.version };
}

/**
 * better-sqlite3's install script fetches a prebuilt binary, or compiles one for minutes when it
 * cannot. Offline, it takes the binary this repository's install built, packed under the name it
 * looks for in a local prebuilds folder.
 */
async function localPrebuilds(dir: string): Promise<string> {
  const pkg = join(ROOT, "node_modules", "better-sqlite3");
  const { version } = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}${musl() ? "musl" : ""}-${process.arch}.tar.gz`;
  mkdirSync(dir, { recursive: true });
  await sh(pkg, "tar", ["-czf", join(dir, name), "build/Release/better_sqlite3.node"]);
  return dir;
}

/** Whether this is a Linux on musl (the prebuilt binaries' names say so). */
function musl(): boolean {
  const glibc = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header
    .glibcVersionRuntime;
  return process.platform === "linux" && !glibc;
}

/**
 * re2's install script fetches a prebuilt binary, or compiles RE2 for a minute or more when it
 * cannot. Offline, it reads the binary this repository's install built from a local folder
 * given as its download mirror, under the name it asks the mirror for.
 */
function localRe2(dir: string): Record<string, string> {
  const name = `${process.platform}${musl() ? "-musl" : ""}-${process.arch}-${process.versions.modules}`;
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(ROOT, "node_modules", "re2", "build", "Release", "re2.node"), join(dir, name));
  return { RE2_DOWNLOAD_MIRROR: dir, RE2_DOWNLOAD_SKIP_PATH: "1", RE2_DOWNLOAD_SKIP_VER: "1" };
}

/**
 * Creates the project in `dir` and installs the tarball into it. Its package.json allows the
 * three install scripts yardmaster's dependencies have (the native SQLite binding, the RE2
 * binding, esbuild's binary check), and the install runs with strict-allow-scripts, so any
 * other would fail it.
 */
export async function installConsumer(dir: string, tarball: string): Promise<void> {
  const root = {
    name: "consumer",
    version: "1.0.0",
    private: true,
    type: "module",
    dependencies: { yardmaster: `file:${tarball}` },
    allowScripts: { "better-sqlite3": true, re2: true, esbuild: true },
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(root, null, 2)}\n`);
  writeFileSync(join(dir, "package-lock.json"), JSON.stringify(consumerLock(root), null, 2));
  const env = consumerEnv({
    npm_config_proxy: DEAD_PROXY,
    npm_config_https_proxy: DEAD_PROXY,
    npm_config_strict_allow_scripts: "true",
    // prebuild-install reads it from the environment (npm warns it does not know the name).
    npm_config_better_sqlite3_local_prebuilds: await localPrebuilds(join(dir, "..", "prebuilds")),
    ...localRe2(join(dir, "..", "re2-prebuilds")),
  });
  await sh(dir, "npm", ["install", "--offline", "--no-audit", "--no-fund"], env);
}

/** Whether the consumer's better-sqlite3 was compiled from source (node-gyp leaves obj.target). */
export const compiledSqlite = (dir: string) =>
  existsSync(join(dir, "node_modules", "better-sqlite3", "build", "Release", "obj.target"));
