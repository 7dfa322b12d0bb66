// A throwaway PostgreSQL cluster for the tests: `initdb` into a fresh temp dir, `pg_ctl start`
// listening on 127.0.0.1 (a free port in 25400-25499) with its socket in the same dir, and a
// `stop` that shuts it down and removes the dir. `initdb` and `postgres` refuse to run as root,
// so under uid 0 they run as the `postgres` system user (`runuser`), created if missing.
// Durability is switched off (fsync, full_page_writes): the data is thrown away afterwards.
import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

/** A role that must log in with a password (every other connection is trusted). */
export const PASSWORD_ROLE = { user: "ym_password_user", password: "s3cret-Pa55word" };

const PORTS = { first: 25400, last: 25499 };
const STEP_TIMEOUT_MS = 60_000;

export interface PostgresCluster {
  /** Superuser URL of the `postgres` database, e.g. postgres://postgres@127.0.0.1:25400/postgres */
  url: string;
  port: number;
  stop(): Promise<void>;
}

function versionOf(dir: string): number {
  return Number.parseFloat(dir) || 0;
}

/** The bin directory of the newest installed PostgreSQL, or null when there is none. */
export async function findPostgresBin(): Promise<string | null> {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, "bin", "postgres")))
      .sort((a, b) => versionOf(b) - versionOf(a));
    if (versions.length > 0) return join(root, versions[0], "bin");
  }
  try {
    const { stdout } = await run("pg_config", ["--bindir"], { timeout: 10_000 });
    const bin = stdout.trim();
    if (existsSync(join(bin, "postgres")) && existsSync(join(bin, "initdb"))) return bin;
  } catch {}
  return null;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A port in 25400-25499 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  const span = PORTS.last - PORTS.first + 1;
  const start = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = PORTS.first + ((start + i) % span);
    if (await portIsFree(port)) return port;
  }
  throw new Error(`postgres cluster: no free port in ${PORTS.first}-${PORTS.last}`);
}

const asRoot = () => process.getuid?.() === 0;

/** Under root, makes sure the `postgres` user exists and answers its uid and gid. */
async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const id = async (flag: string) => Number((await run("id", [flag, "postgres"])).stdout.trim());
  try {
    return { uid: await id("-u"), gid: await id("-g") };
  } catch {
    await run("useradd", ["--system", "--no-create-home", "postgres"], { timeout: 30_000 });
    return { uid: await id("-u"), gid: await id("-g") };
  }
}

/** Runs a PostgreSQL binary, as the `postgres` user when we are root. */
async function pgRun(bin: string, tool: string, args: string[], cwd: string): Promise<string> {
  const [file, argv] = asRoot()
    ? ["runuser", ["-u", "postgres", "--", join(bin, tool), ...args]]
    : [join(bin, tool), args];
  try {
    const { stdout } = await run(file, argv, { cwd, timeout: STEP_TIMEOUT_MS });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`postgres cluster: ${tool} failed: ${e.stderr?.trim() || e.message}`);
  }
}

const SETTINGS = (port: number, socketDir: string) => `
listen_addresses = '127.0.0.1'
port = ${port}
unix_socket_directories = '${socketDir}'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
`;

const HBA = `
local all all trust
host all ${PASSWORD_ROLE.user} 127.0.0.1/32 scram-sha-256
host all all 127.0.0.1/32 trust
`;

async function createPasswordRole(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { user, password } = PASSWORD_ROLE;
    await client.query(`CREATE ROLE ${user} LOGIN PASSWORD '${password}'`);
    await client.query(`GRANT CREATE ON DATABASE postgres TO ${user}`);
  } finally {
    await client.end();
  }
}

/** Creates and starts a cluster; `stop()` shuts it down and deletes its files. */
export async function startPostgresCluster(bin: string): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), "pgwork-cluster-"));
  const data = join(dir, "data");
  if (asRoot()) {
    const { uid, gid } = await postgresUser();
    chownSync(dir, uid, gid);
  }
  const stop = async () => {
    if (existsSync(join(data, "postmaster.pid"))) {
      await pgRun(bin, "pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w", "-t", "30"], dir);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const initArgs = ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"];
    await pgRun(bin, "initdb", [...initArgs, "--locale=C.UTF-8"], dir);
    const port = await freePort();
    writeFileSync(join(data, "postgresql.auto.conf"), SETTINGS(port, dir));
    writeFileSync(join(data, "pg_hba.conf"), HBA);
    const log = join(dir, "server.log");
    await pgRun(bin, "pg_ctl", ["start", "-D", data, "-l", log, "-w", "-t", "30"], dir);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    await createPasswordRole(url);
    return { url, port, stop };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}
