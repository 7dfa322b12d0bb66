// Loading targets through tsx: each stage that can stop a load (with its detail), and the
// fixture of every function form as real TypeScript, with its descriptions and source lines.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { edgeRefs, isWorkflow, route, Workflow } from "../../src/authoring/index.ts";
import { elideSource } from "../../src/loading/import-error.ts";
import {
  type LoadStage,
  loadTarget,
  readSource,
  WorkflowLoadError,
} from "../../src/loading/index.ts";
import { makeTempDir } from "../fixtures/workflows/temp-dir.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const fixtures = path.join(root, "test/fixtures/workflows");
const temp = makeTempDir();
const tmp = temp.dir;
afterAll(() => temp.remove());

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

describe("load stages", () => {
  it("target: refuses strings that are not file:export or module:export", async () => {
    await expectStage("workflows/triage.ts", "target", /not of the form/);
    await expectStage(":triage", "target", /names no file or module/);
    await expectStage("workflows/triage.ts: ", "target", /names no export/);
  });

  it("import: a missing file, a syntax error, a throw at import, an unknown module", async () => {
    temp.write("syntax.ts", "export const x = ;\n");
    temp.write("throws.ts", 'throw new Error("exploded while importing");\n');
    await expectStage("nope.ts:x", "import", new RegExp(`file not found: .*${path.sep}nope\\.ts`));
    await expectStage("syntax.ts:x", "import", /syntax\.ts.*(Unexpected|Expected)/s);
    await expectStage("./throws.ts:x", "import", /^Error: exploded while importing$/);
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
      {
        name: "arrow",
        edges: ["method"],
        slots: [true, false],
        description: "Given in the options.",
      },
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
      {
        name: "end",
        edges: [],
        slots: [true, false],
        description: "Doc comment above a lint directive.",
      },
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
        end: { line: lineOf("forms.node(async function end(") },
      },
    });
  });
});

describe("elideSource: parse errors never quote the file", () => {
  it("drops quoted source, keeps quoted punctuation, and drops V8's JSON window", () => {
    expect(elideSource("Unexpected identifier 'Sekr1t'")).toBe("Unexpected identifier …");
    expect(elideSource('Expected ";" but found "Sekr1t"')).toBe('Expected ";" but found …');
    expect(
      elideSource("The requested module './keys.mjs' does not provide an export named 'Sekr1t'"),
    ).toBe("The requested module … does not provide an export named …");
    expect(elideSource(`Unexpected token 'k', "{"key": Sekr1t}" is not valid JSON`)).toBe(
      "Unexpected token …, … is not valid JSON",
    );
    expect(elideSource("Sekr1t_value is not defined")).toBe("… is not defined");
  });
});
