// The package as a user gets it: `npm pack`, installed offline into a fresh project, which
// writes a workflow importing "yardmaster", type-checks it with its own stock tsconfig.json
// (NodeNext) and with a Bundler one, and serves it with `npx yardmaster serve`: the console's
// page at `/`, a run completed over HTTP. The same workflow, importing the compiled package,
// also runs on a server started from this clone's sources, and a workflow outside any project
// gets the installed server's own entry. The typed client ("yardmaster/client") type-checks in
// the project and talks to the served API.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  compiledSqlite,
  consumerEnv,
  installConsumer,
  type Packed,
  packYardmaster,
  sh,
} from "../support/consumer-project.ts";
import { eventually } from "../support/server-harness.ts";

const scratch = mkdtempSync(join(tmpdir(), "ym-consumer-"));
const project = join(scratch, "project");
const outside = join(scratch, "outside");
let packed: Packed;
const children: ChildProcess[] = [];

const GREET = `import { NonRetryable, workflow } from "yardmaster";

export const greet = workflow("greet");

/** Checks the title. */
greet.node(
  { start: true, retries: 2 },
  async function intake({ shout, reject }, input: { title: string }) {
    if (!input.title.trim()) return reject;
    return shout({ name: input.title });
  },
);

greet.node(async function shout({}, who: { name: string }, ctx) {
  await ctx.log(\`greeting \${who.name}\`);
  return \`HELLO, \${who.name.toUpperCase()}!\`;
});

greet.node(async function reject() {
  throw new NonRetryable("empty title");
});
`;

const HELLO = `import { workflow } from "yardmaster";

export const hello = workflow("hello");

hello.node({ start: true }, async function answer({}, input: { title: string }) {
  return \`hello, \${input.title}\`;
});
`;

/** A user's script over the typed client: the paths, parameters and answers are typed. */
const CLIENT = `import { ApiRefusal, createClient, EVENT_NAMES, type Schemas } from "yardmaster/client";

export async function greetAndRead(baseUrl: string): Promise<Schemas["RunDetail"] | null> {
  const client = createClient({ baseUrl, timeoutMs: 10_000 });
  const { run_id } = await client.post("/api/workflows/{name}/runs", {
    params: { name: "greet" },
    body: { title: "typed" },
  });
  const vocabulary: readonly Schemas["EventName"][] = EVENT_NAMES;
  // @ts-expect-error: the API documents no such path
  void client.get("/api/nowhere");
  try {
    const run = await client.get("/api/runs/{run_id}", { params: { run_id } });
    const status: Schemas["RunStatus"] = run.status;
    return status === "completed" || vocabulary.length > 0 ? run : null;
  } catch (error) {
    if (error instanceof ApiRefusal && error.code === "not_found") return null;
    throw error;
  }
}
`;

const CONFIG = `[server]
host = "127.0.0.1"
port = 0
workflow_roots = [".", "${outside}"]

[pools.default]
capacity = 2

[workflows.greet]
target = "workflows/greet.ts:greet"

[workflows.hello]
target = "${join(outside, "hello.ts")}:hello"
`;

const BUNDLER = {
  compilerOptions: {
    target: "es2022",
    module: "preserve",
    moduleResolution: "bundler",
    strict: true,
    noEmit: true,
    skipLibCheck: false,
  },
  include: ["workflows", "client.ts"],
};

beforeAll(async () => {
  packed = await packYardmaster(scratch);
  await installConsumer(project, packed.tarball);
  mkdirSync(join(project, "workflows"));
  writeFileSync(join(project, "workflows", "greet.ts"), GREET);
  writeFileSync(join(project, "client.ts"), CLIENT);
  writeFileSync(join(project, "yardmaster.toml"), CONFIG);
  writeFileSync(join(project, "tsconfig.bundler.json"), JSON.stringify(BUNDLER));
  // No package.json: a CommonJS folder no project encloses.
  mkdirSync(outside);
  writeFileSync(join(outside, "hello.ts"), HELLO);
}, 600_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

/** `serve` with a store of its own; npx runs the server as its child, so it gets a group. */
function serve(command: string[], store: string, cwd = project): Promise<string> {
  const [program, ...args] = command;
  const flags = ["--port", "0", "--store", `sqlite:${join(scratch, store)}`];
  const child = spawn(program!, [...args, "serve", ...flags], {
    cwd,
    // Warnings and errors still reach the test's output; the info lines of every request do not.
    env: { ...consumerEnv(), YARDMASTER_LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  children.push(child);
  return new Promise((done, fail) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const url = /listening on (\S+)/.exec(line)?.[1];
      if (url) done(url);
    });
    child.once("exit", (code) => fail(new Error(`yardmaster serve exited ${code}`)));
  });
}

async function runToEnd(url: string, workflow: string, title: string): Promise<any> {
  const res = await fetch(`${url}/api/workflows/${workflow}/runs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ title }),
  });
  expect(res.status).toBe(201);
  const { run_id } = (await res.json()) as { run_id: string };
  return eventually(
    async () => {
      const run = (await (await fetch(`${url}/api/runs/${run_id}`)).json()) as any;
      return ["completed", "failed"].includes(run.status) && run;
    },
    `run ${run_id} of ${workflow} ended`,
    20_000,
  );
}

describe("the packed package in a user's project", () => {
  it("holds the bin, the compiled code, the built console, README and LICENSE, nothing else", () => {
    const tops = new Set(packed.files.map((f) => f.split("/")[0]));
    expect([...tops].sort()).toEqual(
      ["LICENSE", "README.md", "bin", "dist", "examples", "package.json", "ui"].sort(),
    );
    expect(packed.files).toContain("bin/yardmaster.mjs");
    expect(packed.files).toContain("dist/index.js");
    expect(packed.files).toContain("dist/index.d.ts");
    expect(packed.files).toContain("dist/client/index.js");
    expect(packed.files).toContain("dist/client/index.d.ts");
    expect(packed.files).toContain("dist/cli/main.js");
    expect(packed.files).toContain("ui/dist/index.html");
    expect(packed.files).toContain("examples/demo.ts");
    expect(packed.files.filter((f) => f.startsWith("ui/") && !f.startsWith("ui/dist/"))).toEqual(
      [],
    );
    expect(packed.files.filter((f) => f.startsWith("examples/"))).toEqual(["examples/demo.ts"]);
    // Declarations of the public entry only; no TypeScript source.
    expect(packed.files).not.toContain("dist/server/start.d.ts");
    expect(packed.files.filter((f) => /(?<!\.d)\.ts$/.test(f) && f !== "examples/demo.ts")).toEqual(
      [],
    );
  });

  it("installed offline, with a prebuilt SQLite binding, not compiled", () => {
    expect(readdirSync(join(project, "node_modules", "yardmaster"))).toContain("dist");
    expect(compiledSqlite(project)).toBe(false);
  });

  it("imports under plain node", async () => {
    const out = await sh(project, process.execPath, [
      "--input-type=module",
      "-e",
      'const m = await import("yardmaster"); console.log(Object.keys(m).sort().join(" "));',
    ]);
    expect(out.trim().split(" ")).toEqual(
      expect.arrayContaining(["NonRetryable", "GraphError", "workflow", "isWorkflow"]),
    );
    const client = await sh(project, process.execPath, [
      "--input-type=module",
      "-e",
      'const m = await import("yardmaster/client"); console.log(Object.keys(m).sort().join(" "));',
    ]);
    expect(client.trim().split(" ")).toEqual(
      ["ApiRefusal", "EVENT_NAMES", "YardmasterClient", "createClient"].sort(),
    );
  });

  it("type-checks the workflow with the project's stock tsconfig.json and a Bundler one", async () => {
    const tsc = join(project, "node_modules", "typescript", "bin", "tsc");
    await sh(project, process.execPath, [tsc, "--init"]);
    await sh(project, process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json"]);
    await sh(project, process.execPath, [tsc, "-p", "tsconfig.bundler.json"]);
  }, 120_000);

  it("serves the console and runs the workflow with `npx yardmaster serve`", async () => {
    const url = await serve(["npx", "yardmaster"], "npx.db");
    const page = await fetch(`${url}/`);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    expect(html).toMatch(/<script type="module"[^>]* src="\/assets\/index-[^"]+\.js"/);
    const run = await runToEnd(url, "greet", "ada");
    expect(run.status).toBe("completed");
    expect(run.output).toBe("HELLO, ADA!");
    // The doc comment, read by the source scan (the TypeScript compiler, in a child process).
    const greet = (await (await fetch(`${url}/api/workflows/greet`)).json()) as any;
    expect(greet.nodes.intake.description).toBe("Checks the title.");
    // A file no project encloses imports "yardmaster" too: the serving package's entry.
    expect((await runToEnd(url, "hello", "you")).output).toBe("hello, you");
    // The typed client, from the installed package, against the served API.
    const script = `import { createClient } from "yardmaster/client";
      const client = createClient({ baseUrl: ${JSON.stringify(url)} });
      const { run_id } = await client.post("/api/workflows/{name}/runs", {
        params: { name: "greet" }, body: { title: "client" } });
      const run = await client.get("/api/runs/{run_id}", { params: { run_id } });
      console.log(run.title);`;
    const title = await sh(project, process.execPath, ["--input-type=module", "-e", script]);
    expect(title.trim()).toBe("client");
  }, 60_000);

  it("with no configuration, serves the demo workflow it ships", async () => {
    const empty = join(scratch, "empty");
    mkdirSync(empty);
    const bin = join(project, "node_modules", ".bin", "yardmaster");
    const url = await serve([process.execPath, bin], "demo.db", empty);
    const run = await runToEnd(url, "demo", "latte mocha");
    expect(run.status).toBe("completed");
    expect(run.output).toEqual({ tray: expect.arrayContaining([expect.stringMatching(/^latte/)]) });
  }, 60_000);

  it("runs the same workflow on a server started from this clone's sources", async () => {
    const url = await serve([process.execPath, resolve("bin/yardmaster.mjs")], "clone.db");
    expect((await runToEnd(url, "greet", "bo")).output).toBe("HELLO, BO!");
    // NonRetryable thrown by the compiled package's class: dead-lettered at once, no retry.
    const failed = await runToEnd(url, "greet", " ");
    const reject = failed.tasks.find((t: { node: string }) => t.node === "reject");
    expect(reject).toMatchObject({ status: "dead_letter", attempt: 1 });
    expect(reject.error).toBe("NonRetryable: empty title");
  }, 60_000);
});
