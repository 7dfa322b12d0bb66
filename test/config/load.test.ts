import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.ts";
import { DEFAULT_MAX_EVENT_STREAMS } from "../../src/http/app.ts";
import { DEFAULT_CONNECTION_LIMITS } from "../../src/http/connection-limits.ts";
import { configFailure } from "../support/config-failure.ts";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ym-config-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeConfig(text: string, name = "yardmaster.toml"): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

describe("loadConfig defaults", () => {
  it("uses built-in defaults when the folder has no yardmaster.toml", async () => {
    const config = await loadConfig({ cwd: dir });
    expect(config).toEqual({
      file: null,
      fromFile: false,
      configDir: dir,
      server: {
        host: "127.0.0.1",
        port: 8420,
        requireToken: false,
        retainMs: null,
        store: `sqlite:${join(dir, ".yardmaster/store.db")}`,
        publicUrl: "http://127.0.0.1:8420",
        bodyLimit: 1048576,
        sseReplayCap: 10000,
        tokenFile: join(dir, ".yardmaster/operator-token"),
        token: null,
        workflowRoots: [dir],
        headerTimeoutMs: 20_000,
        requestTimeoutMs: 60_000,
        keepAliveTimeoutMs: 5_000,
        maxConnections: 2000,
        maxEventStreams: 1000,
        idempotencyWindowMs: 86_400_000,
        leaseMs: 15_000,
      },
      log: { level: "info", format: "auto" },
      origins: expect.objectContaining({ "server.port": "default", "log.level": "default" }),
      defaults: { retries: 0, priority: 0, backoff: null },
      pools: { default: { capacity: 4 } },
      workflows: {},
      schedules: {},
      agents: {},
    });
  });

  it("reads yardmaster.toml from the working folder when present", async () => {
    const file = await writeConfig("[server]\nport = 9001\n");
    const config = await loadConfig({ cwd: dir });
    expect(config.file).toBe(file);
    expect(config.fromFile).toBe(true);
    expect(config.server.port).toBe(9001);
    expect(config.pools).toEqual({ default: { capacity: 4 } });
  });

  it("replaces the default pool when pools are configured", async () => {
    await writeConfig("[pools.fast]\ncapacity = 2\n");
    const config = await loadConfig({ cwd: dir });
    expect(config.pools).toEqual({ fast: { capacity: 2 } });
  });

  it("leaves publicUrl null for port 0, whose real port is known only after listening", async () => {
    const config = await loadConfig({ cwd: dir, flags: { port: 0 } });
    expect(config.server.publicUrl).toBeNull();
  });
});

describe("loadConfig precedence", () => {
  it("lets flags override the file, and the file override defaults", async () => {
    await writeConfig(
      '[server]\nhost = "0.0.0.0"\nport = 9001\nstore = "sqlite:data/file.db"\nrequire_token = true\n',
    );
    const config = await loadConfig({
      cwd: dir,
      flags: { port: 9002, store: "sqlite:flag.db" },
    });
    expect(config.server.host).toBe("0.0.0.0");
    expect(config.server.port).toBe(9002);
    expect(config.server.requireToken).toBe(true);
    expect(config.server.store).toBe(`sqlite:${join(dir, "flag.db")}`);
    // A wildcard bind is advertised to agents over loopback.
    expect(config.server.publicUrl).toBe("http://127.0.0.1:9002");
  });

  it("keeps an explicit public_url over the one built from host and port", async () => {
    await writeConfig('[server]\npublic_url = "https://ym.example.com/"\n');
    const config = await loadConfig({ cwd: dir, flags: { host: "10.0.0.5" } });
    expect(config.server.host).toBe("10.0.0.5");
    expect(config.server.publicUrl).toBe("https://ym.example.com");
  });

  it("reads every section of a full file", async () => {
    await writeConfig(
      [
        "[defaults]",
        "retries = 2",
        "priority = -1",
        "[pools.default]",
        "capacity = 3",
        "[workflows.triage]",
        'target = "triage-pkg:triage"',
        "[agents.default]",
        'command = ["node", "agent.mjs"]',
        'args = ["--fast"]',
        'env = { MODE = "test" }',
        "timeout = 600",
      ].join("\n"),
    );
    const config = await loadConfig({ cwd: dir });
    expect(config.defaults).toEqual({ retries: 2, priority: -1, backoff: null });
    expect(config.workflows.triage).toEqual({
      target: "triage-pkg:triage",
      writtenTarget: "triage-pkg:triage",
      pool: "default",
    });
    expect(config.agents.default).toEqual({
      command: ["node", "agent.mjs"],
      args: ["--fast"],
      env: { MODE: "test" },
      cwd: dir,
      timeout: 600,
    });
  });
});

describe("loadConfig limits and workflow roots", () => {
  it("reads the timeouts in seconds and the caps", async () => {
    await writeConfig(
      "[server]\nheader_timeout = 0.5\nrequest_timeout = 30\nkeep_alive_timeout = 65\n" +
        "max_connections = 50\nmax_event_streams = 10\n",
    );
    const { server } = await loadConfig({ cwd: dir });
    expect(server).toMatchObject({
      headerTimeoutMs: 500,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 50,
      maxEventStreams: 10,
    });
  });

  it("keeps the defaults of the HTTP layer, for apps built without a configuration", async () => {
    const { server } = await loadConfig({ cwd: dir });
    expect({
      headersTimeoutMs: server.headerTimeoutMs,
      requestTimeoutMs: server.requestTimeoutMs,
      keepAliveTimeoutMs: server.keepAliveTimeoutMs,
      maxConnections: server.maxConnections,
      maxEventStreams: server.maxEventStreams,
    }).toEqual({ ...DEFAULT_CONNECTION_LIMITS, maxEventStreams: DEFAULT_MAX_EVENT_STREAMS });
  });

  it("refuses a header timeout set longer than the request timeout, and a zero", async () => {
    await writeConfig("[server]\nheader_timeout = 90\nrequest_timeout = 60\n");
    expect(await configFailure(loadConfig({ cwd: dir }))).toMatch(
      /server\.header_timeout: expected at most request_timeout \(60 seconds\)/,
    );
    await writeConfig("[server]\nrequest_timeout = 5\n");
    expect((await loadConfig({ cwd: dir })).server.headerTimeoutMs).toBe(5000);
    await writeConfig("[server]\nkeep_alive_timeout = 0\n");
    expect(await configFailure(loadConfig({ cwd: dir }))).toMatch(
      /server\.keep_alive_timeout: expected a number of seconds > 0/,
    );
  });

  it("reads idempotency_window in seconds, at most 30 days", async () => {
    await writeConfig("[server]\nidempotency_window = 3600\n");
    expect((await loadConfig({ cwd: dir })).server.idempotencyWindowMs).toBe(3_600_000);
    await writeConfig("[server]\nidempotency_window = 0\n");
    expect(await configFailure(loadConfig({ cwd: dir }))).toMatch(
      /server\.idempotency_window: expected a number of seconds > 0/,
    );
    await writeConfig("[server]\nidempotency_window = 2592001\n");
    expect(await configFailure(loadConfig({ cwd: dir }))).toMatch(
      /server\.idempotency_window: expected at most 2592000 seconds \(30 days\)/,
    );
  });

  it("reads retain as a duration with a unit (s, m, h, d); unset keeps runs for ever", async () => {
    expect((await loadConfig({ cwd: dir })).server.retainMs).toBeNull();
    const cases: Array<[string, number]> = [
      ["30d", 30 * 86_400_000],
      ["12h", 12 * 3_600_000],
      ["90m", 90 * 60_000],
      ["45s", 45_000],
    ];
    for (const [text, ms] of cases) {
      await writeConfig(`[server]\nretain = "${text}"\n`);
      expect((await loadConfig({ cwd: dir })).server.retainMs).toBe(ms);
    }
    for (const bad of ['"30"', '"0d"', '"1w"', '"-1d"', "30"]) {
      await writeConfig(`[server]\nretain = ${bad}\n`);
      expect(await configFailure(loadConfig({ cwd: dir }))).toMatch(
        /server\.retain: expected a duration such as "30d"/,
      );
    }
  });

  it("resolves workflow roots against the file's folder; by default that folder and the working one", async () => {
    const sub = join(dir, "conf");
    await mkdir(sub);
    const file = join(sub, "yardmaster.toml");
    await writeFile(file, "");
    expect((await loadConfig({ file, cwd: dir })).server.workflowRoots).toEqual([sub, dir]);
    await writeFile(file, '[server]\nworkflow_roots = ["flows", "/srv/shared"]\n');
    expect((await loadConfig({ file, cwd: dir })).server.workflowRoots).toEqual([
      join(sub, "flows"),
      "/srv/shared",
    ]);
  });
});

describe("loadConfig relative paths", () => {
  it("resolves paths in the file against the file's folder, not the working folder", async () => {
    const confDir = join(dir, "conf");
    await mkdir(confDir);
    const file = join(confDir, "custom.toml");
    await writeFile(
      file,
      [
        "[server]",
        'store = "sqlite:state/store.db"',
        'token_file = "secrets/token"',
        "[workflows.a]",
        'target = "flows/a.ts:a"',
        "[workflows.b]",
        'target = "/abs/b.mts:b"',
        "[agents.x]",
        'command = ["x"]',
        'cwd = "agents"',
      ].join("\n"),
    );
    const config = await loadConfig({ cwd: dir, file: "conf/custom.toml" });
    expect(config.file).toBe(file);
    expect(config.configDir).toBe(confDir);
    expect(config.server.store).toBe(`sqlite:${join(confDir, "state/store.db")}`);
    expect(config.server.tokenFile).toBe(join(confDir, "secrets/token"));
    expect(config.workflows.a.target).toBe(`${join(confDir, "flows/a.ts")}:a`);
    expect(config.workflows.a.writtenTarget).toBe("flows/a.ts:a");
    expect(config.workflows.b.target).toBe("/abs/b.mts:b");
    expect(config.agents.x.cwd).toBe(join(confDir, "agents"));
  });

  it("leaves memory and postgres stores as written", async () => {
    const memory = await loadConfig({ cwd: dir, flags: { store: "sqlite::memory:" } });
    expect(memory.server.store).toBe("sqlite::memory:");
    const pg = await loadConfig({ cwd: dir, flags: { store: "postgres://u:p@db:5432/ym" } });
    expect(pg.server.store).toBe("postgres://u:p@db:5432/ym");
  });
});

describe("loadConfig errors name the file and the key", () => {
  it("refuses an unknown key", async () => {
    await writeConfig('[server]\nhots = "x"\n');
    const message = await configFailure(loadConfig({ cwd: dir }));
    expect(message).toMatch(/^yardmaster\.toml: server\.hots: unknown key \(known keys: host, /);
  });

  it("refuses an unknown table", async () => {
    await writeConfig("[pool.default]\ncapacity = 4\n");
    expect(await configFailure(loadConfig({ cwd: dir }))).toMatch(
      /^yardmaster\.toml: pool: unknown key/,
    );
  });

  it("refuses a capacity that is not a positive integer", async () => {
    await writeConfig('[pools.default]\ncapacity = "four"\n[pools.b]\ncapacity = 0\n');
    const message = await configFailure(loadConfig({ cwd: dir }));
    expect(message.split("\n")).toEqual([
      'yardmaster.toml: pools.default.capacity: expected a positive integer, got "four"',
      "yardmaster.toml: pools.b.capacity: expected a positive integer, got 0",
    ]);
  });

  it("reads [defaults] backoff and refuses a bad one", async () => {
    await writeConfig("[defaults]\nbackoff = { initial = 1, factor = 2, max = 300 }\n");
    const config = await loadConfig({ cwd: dir });
    expect(config.defaults.backoff).toEqual({ initial: 1, factor: 2, max: 300 });
    await writeConfig("[defaults]\nbackoff = { initial = 0, factor = 0.5, delay = 3 }\n");
    const message = await configFailure(loadConfig({ cwd: dir }));
    expect(message).toContain("defaults.backoff.initial: expected a number of seconds > 0");
    expect(message).toContain("defaults.backoff");
    expect(message).toMatch(/unknown key \(known keys: initial, factor, max, jitter\)/);
  });

  it("refuses values of the wrong type", async () => {
    await writeConfig('[server]\nport = "80"\nrequire_token = "yes"\n');
    const message = await configFailure(loadConfig({ cwd: dir }));
    expect(message).toContain(
      'yardmaster.toml: server.port: expected a port number (0-65535), got "80"',
    );
    expect(message).toContain(
      'yardmaster.toml: server.require_token: expected true or false, got "yes"',
    );
  });

  it("refuses a missing required key and an empty agent command, quoting odd names", async () => {
    await writeConfig('[workflows."my flow"]\npool = "default"\n[agents.a]\ncommand = []\n');
    const message = await configFailure(loadConfig({ cwd: dir }));
    expect(message).toContain('yardmaster.toml: workflows."my flow".target: missing required key');
    expect(message).toContain("yardmaster.toml: agents.a.command: expected a non-empty array");
  });

  it("refuses a workflow bound to a pool that is not configured, naming both", async () => {
    await writeConfig('[pools.fast]\ncapacity = 1\n[workflows.triage]\ntarget = "t.ts:t"\n');
    const message = await configFailure(loadConfig({ cwd: dir }));
    expect(message).toBe(
      'yardmaster.toml: workflows.triage.pool: workflow "triage" names pool "default", which is not configured (pools: fast)',
    );
  });

  it("reports a TOML syntax error with its line", async () => {
    await writeConfig('[server]\nport = 8420\nhost = "unterminated\n');
    const message = await configFailure(loadConfig({ cwd: dir }));
    expect(message.split("\n")[0]).toMatch(/^yardmaster\.toml: line 3, column \d+: invalid TOML: /);
  });

  it("refuses a --config file that does not exist, and bad flags", async () => {
    const missing = await configFailure(loadConfig({ cwd: dir, file: "nope.toml" }));
    expect(missing).toBe("nope.toml: file not found");
    const flags = await configFailure(
      loadConfig({ cwd: dir, flags: { port: 70000, store: "mysql:x" } }),
    );
    expect(flags).toContain("--port: expected a port number (0-65535), got 70000");
    expect(flags).toContain(
      '--store: expected a store URL (sqlite:PATH or postgres://...), got "mysql:x"',
    );
  });
});
