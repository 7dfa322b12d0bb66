// `yardmaster serve` configured from the environment, through the real command: precedence
// (flags, then variables, then the file, then defaults) as --print-config shows it with secrets
// masked, the refusals a bad variable gets, and servers that really take their operator token
// and their store password from variables and files.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { call } from "../support/http-client.ts";
import { dropSchemas, freshSchema, postgres, withSchema } from "../support/postgres.ts";
import { PASSWORD_ROLE } from "../support/postgres-cluster.ts";
import { killAll, serve, serveOnce, stop } from "../support/serve.ts";
import { somePort } from "../support/serve-folders.ts";

const children: ChildProcess[] = [];
const schemas: string[] = [];
let dir: string;

afterEach(() => {
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});
afterAll(() => dropSchemas(schemas));

function folder(toml: string): string {
  dir = mkdtempSync(join(tmpdir(), "ym-env-"));
  writeFileSync(join(dir, "yardmaster.toml"), toml);
  return dir;
}

/** The value and the origin comment of `key` in --print-config output. */
function setting(text: string, key: string): { value: string; origin: string } {
  const match = new RegExp(`^${key} = (.*?)  # (.*)$`, "m").exec(text);
  if (!match) throw new Error(`no ${key} in:\n${text}`);
  return { value: match[1], origin: match[2] };
}

describe("serve --print-config", () => {
  it("resolves flags over variables over the file over defaults, and exits", async () => {
    folder(`[server]
host = "127.0.0.2"
port = 9000
store = "sqlite:from-file.db"
[log]
level = "warn"
[pools.default]
capacity = 3
`);
    const { code, stdout } = await serveOnce(dir, ["--print-config", "--store", "sqlite:flag.db"], {
      YARDMASTER_PORT: "9100",
      YARDMASTER_STORE: "sqlite:env.db",
      YARDMASTER_LOG_FORMAT: "json",
    });
    expect(code).toBe(0);
    expect(setting(stdout, "host")).toEqual({ value: '"127.0.0.2"', origin: "file" });
    expect(setting(stdout, "port")).toEqual({ value: "9100", origin: "YARDMASTER_PORT" });
    expect(setting(stdout, "store")).toEqual({
      value: JSON.stringify(`sqlite:${join(dir, "flag.db")}`),
      origin: "--store",
    });
    expect(setting(stdout, "body_limit")).toEqual({ value: "1048576", origin: "default" });
    expect(setting(stdout, "level")).toEqual({ value: '"warn"', origin: "file" });
    expect(setting(stdout, "format")).toEqual({ value: '"json"', origin: "YARDMASTER_LOG_FORMAT" });
    expect(stdout).toContain("[pools.default]\ncapacity = 3");
  });

  it("masks the operator token, the store password and agents' env values", async () => {
    folder(`[agents.helper]
command = ["node", "helper.mjs"]
env = { API_KEY = "agent-secret-key" }
`);
    const token = randomBytes(16).toString("hex");
    const password = "pw-from-a-file";
    writeFileSync(join(dir, "db-password"), `${password}\n`);
    const { code, stdout } = await serveOnce(dir, ["--print-config"], {
      YARDMASTER_TOKEN: token,
      YARDMASTER_STORE: "postgres://ym@db.example:5432/ym?schema=yard",
      YARDMASTER_STORE_PASSWORD_FILE: "db-password",
      YARDMASTER_CONFIG: "yardmaster.toml",
    });
    expect(code).toBe(0);
    expect(setting(stdout, "store")).toEqual({
      value: '"postgres://ym:***@db.example:5432/ym?schema=yard"',
      origin: "YARDMASTER_STORE, password from YARDMASTER_STORE_PASSWORD_FILE",
    });
    expect(stdout).toContain("# operator token: *** from YARDMASTER_TOKEN");
    expect(stdout).toContain('API_KEY = "***"');
    for (const secret of [token, password, "agent-secret-key"]) {
      expect(stdout).not.toContain(secret);
    }
  });

  it("refuses bad variables, naming each one", async () => {
    folder("[pools.default]\ncapacity = 1\n");
    const refused = await serveOnce(dir, ["--print-config"], {
      YARDMASTER_PORT: "eighty",
      YARDMASTER_LOG_LEVEL: "loud",
      YARDMASTER_TOKEN: "a",
      YARDMASTER_TOKEN_FILE: "token",
      YARDMASTER_STORE_PASSWORD_FILE: "missing-file",
    });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    const lines = refused.stderr;
    expect(lines).toMatch(/^YARDMASTER_PORT: expected a port number \(0-65535\), got "eighty"$/m);
    expect(lines).toMatch(/^YARDMASTER_LOG_LEVEL: expected one of fatal, .*, got "loud"$/m);
    expect(lines).toMatch(
      /^YARDMASTER_TOKEN: set either YARDMASTER_TOKEN or YARDMASTER_TOKEN_FILE/m,
    );
    expect(lines).toMatch(/^YARDMASTER_STORE_PASSWORD_FILE: cannot read missing-file: /m);
    const sqlite = await serveOnce(dir, ["--print-config"], { YARDMASTER_STORE_PASSWORD: "x" });
    expect(sqlite.code).toBe(1);
    expect(sqlite.stderr).toMatch(/^YARDMASTER_STORE_PASSWORD: the store is not a PostgreSQL URL/m);
  });
});

describe("a server configured from the environment", () => {
  it("binds YARDMASTER_HOST and YARDMASTER_PORT and takes the token of YARDMASTER_TOKEN", async () => {
    folder("[server]\nrequire_token = true\n[pools.default]\ncapacity = 1\n");
    const token = randomBytes(16).toString("hex");
    const port = somePort();
    const served = await serve({
      dir,
      children,
      env: { YARDMASTER_HOST: "127.0.0.1", YARDMASTER_PORT: String(port), YARDMASTER_TOKEN: token },
    });
    expect(served.url).toBe(`http://127.0.0.1:${port}`);
    expect((await call(served.url, "/api/runs")).status).toBe(401);
    const headers = { authorization: `Bearer ${token}` };
    expect((await call(served.url, "/api/runs", { headers })).status).toBe(200);
    await stop(served);
  });

  it.skipIf(!postgres.ownCluster)(
    "puts YARDMASTER_STORE_PASSWORD_FILE's password into the PostgreSQL URL",
    async () => {
      folder("[server]\nport = 0\n[pools.default]\ncapacity = 1\n");
      const schema = freshSchema("envpw");
      schemas.push(schema);
      const url = new URL(postgres.url!);
      url.username = PASSWORD_ROLE.user;
      writeFileSync(join(dir, "secret"), PASSWORD_ROLE.password);
      const served = await serve({
        dir,
        children,
        env: {
          YARDMASTER_STORE: withSchema(url.toString(), schema),
          YARDMASTER_STORE_PASSWORD_FILE: join(dir, "secret"),
        },
      });
      const ready = await call(served.url, "/api/health/ready");
      expect(ready).toEqual({ status: 200, body: { ok: true, schema: expect.any(Number) } });
      await stop(served);
    },
  );
});
