// Loading targets through tsx: each stage that can stop a load (with its detail), the fixture of
// every function form as real TypeScript, module targets, reloads after an edit, and readSource.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  edgeRefs,
  isWorkflow,
  type LoadStage,
  loadTarget,
  readSource,
  route,
  Workflow,
  WorkflowLoadError,
} from "../src/authoring/index.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const fixtures = path.join(root, "test/fixtures/workflows");
// Files in the temp dir live outside the package, so they import the entry by absolute URL.
const entryUrl = pathToFileURL(path.join(root, "src/index.ts")).href;
let tmp: string;

function write(name: string, text: string): string {
  const file = path.join(tmp, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text.replaceAll("YARDMASTER", entryUrl));
  return file;
}

async function loadError(target: string, baseDir = tmp): Promise<WorkflowLoadError> {
  try {
    await loadTarget(target, baseDir);
  } catch (err) {
    expect(err).toBeInstanceOf(WorkflowLoadError);
    return err as WorkflowLoadError;
  }
  throw new Error(`loading ${target} did not fail`);
}

async function expectStage(target: string, stage: LoadStage, detail: RegExp, baseDir = tmp) {
  const err = await loadError(target, baseDir);
  expect({ stage: err.stage, target: err.target }).toEqual({ stage, target });
  expect(err.detail).toMatch(detail);
  expect(err.message).toContain(err.detail);
}

const chain = (name: string, last: string) => `import { workflow } from "YARDMASTER";
export const ${name} = workflow("${name}");
${name}.node({ start: true }, async function first({ second }) { return second("hi"); });
${name}.node(async function second({}, text) { return ${last}; });
`;

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "yardmaster-loader-"));
  writeFileSync(path.join(tmp, "package.json"), '{ "type": "module" }\n');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("load stages", () => {
  it("target: refuses strings that are not file:export or module:export", async () => {
    await expectStage("workflows/triage.ts", "target", /not of the form/);
    await expectStage(":triage", "target", /names no file or module/);
    await expectStage("workflows/triage.ts: ", "target", /names no export/);
  });

  it("import: a missing file, a syntax error, a throw at import, an unknown module", async () => {
    write("syntax.ts", "export const x = ;\n");
    write("throws.ts", 'throw new Error("exploded while importing");\n');
    await expectStage("nope.ts:x", "import", new RegExp(`file not found: .*${path.sep}nope\\.ts`));
    await expectStage("syntax.ts:x", "import", /syntax\.ts.*(Unexpected|Expected)/s);
    await expectStage("./throws.ts:x", "import", /^exploded while importing$/);
    await expectStage("no-such-package:x", "import", /Cannot find package 'no-such-package'/);
  });

  it("attribute: no such export, or an export that is not a workflow", async () => {
    await expectStage(
      "not-a-workflow.ts:missing",
      "attribute",
      /has no export "missing" \(it exports: count, helper\)/,
      fixtures,
    );
    await expectStage(
      "not-a-workflow.ts:helper",
      "attribute",
      /export "helper" of .* is function, not a workflow/,
      fixtures,
    );
  });

  it("finalize: the GraphError's message", async () => {
    await expectStage(
      "graph-bad.ts:twoStarts",
      "finalize",
      /workflow "two_starts": 2 nodes are marked start \(first, second\)/,
      fixtures,
    );
  });

  it("plugins: declarations without a name", async () => {
    await expectStage(
      "plugins-bad.ts:plugged",
      "plugins",
      /workflow "plugged": action #1 needs a non-empty string "name"/,
      fixtures,
    );
  });
});

describe("the function-forms fixture, loaded as TypeScript", () => {
  it("reads every form, option and doc comment", async () => {
    const loaded = await loadTarget("forms.ts:forms", fixtures, { retries: 0 });
    expect(loaded.file).toBe(path.join(fixtures, "forms.ts"));
    expect(isWorkflow(loaded.workflow)).toBe(true);
    // A separate copy of the module: only the brand makes it recognisable.
    expect(loaded.workflow instanceof Workflow).toBe(false);
    const view = [...loaded.graph.nodes.values()].map((n) => ({
      name: n.name,
      edges: n.edges,
      slots: [n.hasPayload, n.hasCtx],
      description: n.description,
    }));
    expect(view).toEqual([
      {
        name: "intake",
        edges: ["declared", "with-dash", "arrow"],
        slots: [true, true],
        description: "Takes the ticket in.",
      },
      {
        name: "declared",
        edges: ["method"],
        slots: [true, false],
        description: "A function declaration, registered by name below.",
      },
      { name: "arrow", edges: ["method"], slots: [true, false], description: null },
      {
        name: "with-dash",
        edges: ["method"],
        slots: [false, false],
        description: "Doc comment right before an anonymous arrow.",
      },
      {
        name: "method",
        edges: ["end"],
        slots: [true, true],
        description: "The doc comment of a method, first thing in its body.",
      },
      { name: "end", edges: [], slots: [true, false], description: "Given in the options." },
    ]);
    expect(loaded.graph.nodes.get("intake")).toMatchObject({
      retries: 1,
      timeout: 2.5,
      priority: 3,
    });
    expect(loaded.graph.nodes.get("with-dash")).toMatchObject({ label: "With a dash", retries: 0 });
  });

  it("routes returns through renamed locals and a default payload", async () => {
    const { graph } = await loadTarget("forms.ts:forms", fixtures);
    const intake = graph.nodes.get("intake")!;
    const ctx = { task: { node: "intake" } };
    const run = async (payload: unknown) =>
      route(graph, "intake", await intake.fn(edgeRefs(intake), payload, ctx));
    expect(await run(undefined)).toMatchObject({
      transitions: [{ edge: "declared", present: true, payload: { title: "none" } }],
    });
    expect(await run({ title: "dash" })).toMatchObject({
      transitions: [{ edge: "with-dash", present: false }],
    });
    expect(await run({ title: "arrow" })).toMatchObject({
      transitions: [{ edge: "arrow", payload: { from: "intake" } }],
    });
  });

  it("reports the source with each node's line", async () => {
    const loaded = await loadTarget("forms.ts:forms", fixtures);
    const source = await readSource(loaded);
    const text = readFileSync(path.join(fixtures, "forms.ts"), "utf8");
    const lines = text.split("\n");
    const lineOf = (start: string) => lines.findIndex((l) => l.startsWith(start)) + 1;
    // For an inline body the line is that of `forms.node(`, just above the options here.
    const callAbove = (options: string) => lines.findIndex((l) => l.includes(options));
    expect(source).toEqual({
      file: path.join(fixtures, "forms.ts"),
      source: text,
      nodes: {
        intake: { line: callAbove("{ start: true, retries: 1") },
        declared: { line: lineOf("async function declared(") },
        arrow: { line: lineOf("const arrow =") },
        "with-dash": { line: callAbove('{ name: "with-dash"') },
        method: { line: lineOf("  async method(") },
        end: { line: lineOf("forms.node({ description:") },
      },
    });
  });
});

describe("targets outside the fixtures folder", () => {
  it("sees the new content when the same file is loaded again after an edit", async () => {
    const file = write("reload.ts", chain("reload", '"version one"'));
    const first = await loadTarget("reload.ts:reload", tmp);
    writeFileSync(file, chain("reload", '"version two"').replaceAll("YARDMASTER", entryUrl));
    const second = await loadTarget("reload.ts:reload", tmp);
    const run = async (loaded: typeof first) => {
      const node = loaded.graph.nodes.get("second")!;
      return route(loaded.graph, "second", await node.fn(edgeRefs(node), "hi"));
    };
    expect(await run(first)).toEqual({ kind: "end", value: "version one" });
    expect(await run(second)).toEqual({ kind: "end", value: "version two" });
  });

  it("re-reads the files a workflow imports too (ES module folders)", async () => {
    const helper = write("helper.ts", 'export const suffix: string = "one";\n');
    const text = chain("withhelper", "text + suffix").replace(
      "\n",
      '\nimport { suffix } from "./helper.ts";\n',
    );
    write("with-helper.ts", text);
    const first = await loadTarget("with-helper.ts:withhelper", tmp);
    writeFileSync(helper, 'export const suffix: string = "two";\n');
    const second = await loadTarget("with-helper.ts:withhelper", tmp);
    const run = async (loaded: typeof first) => loaded.graph.nodes.get("second")!.fn({}, "hi ");
    expect([await run(first), await run(second)]).toEqual(["hi one", "hi two"]);
  });

  it("loads .js and .mjs files and finds their doc comments", async () => {
    write(
      "plain.mjs",
      chain("plain_mjs", "text").replace(
        "plain_mjs.node({ start",
        "/** Says hi. */\nplain_mjs.node({ start",
      ),
    );
    write("plain.js", chain("plain_js", "text"));
    const mjs = await loadTarget("plain.mjs:plain_mjs", tmp);
    const js = await loadTarget(`${path.join(tmp, "plain.js")}:plain_js`, "/");
    expect(mjs.graph.nodes.get("first")!.description).toBe("Says hi.");
    expect(mjs.graph.nodes.get("second")!.description).toBeNull();
    expect(mjs.graph.edges).toEqual([{ from: "first", to: "second", kind: "forward" }]);
    expect(js.file).toBe(path.join(tmp, "plain.js"));
  });

  it("resolves module:export from the base folder with Node resolution", async () => {
    write(
      "node_modules/my-flows/package.json",
      '{ "name": "my-flows", "type": "module", "exports": { ".": { "import": "./main.mjs" } } }',
    );
    write("node_modules/my-flows/main.mjs", chain("packaged", "text.toUpperCase()"));
    const loaded = await loadTarget("my-flows:packaged", tmp);
    expect(loaded.file).toBe(path.join(tmp, "node_modules/my-flows/main.mjs"));
    expect(loaded.graph.name).toBe("packaged");
    expect((await readSource(loaded))!.nodes).toEqual({ first: { line: 3 }, second: { line: 4 } });
  });

  it("reads the lines of the exported workflow when a file defines two", async () => {
    write(
      "two.ts",
      `import { workflow } from "YARDMASTER";
export const alpha = workflow("alpha");
export const beta = workflow("beta");
beta.node({ start: true }, async function only() {});
alpha.node({ start: true }, async function only() {});
`,
    );
    const alpha = await loadTarget("two.ts:alpha", tmp);
    const beta = await loadTarget("two.ts:beta", tmp);
    expect((await readSource(alpha))!.nodes).toEqual({ only: { line: 5 } });
    expect((await readSource(beta))!.nodes).toEqual({ only: { line: 4 } });
  });

  it("gives no source once the file is gone, or when there is no file", async () => {
    const file = write("gone.ts", chain("gone", "text"));
    const loaded = await loadTarget("gone.ts:gone", tmp);
    expect(await readSource(loaded)).not.toBeNull();
    rmSync(file);
    expect(await readSource(loaded)).toBeNull();
    expect(await readSource({ ...loaded, file: null })).toBeNull();
  });
});
