// Targets in a temporary folder outside the package: reloads after an edit (of the file and of
// what it imports), .js/.mjs files, module:export targets, and readSource edge cases.
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { edgeRefs, route } from "../../src/authoring/index.ts";
import { loadTarget, readSource } from "../../src/loading/index.ts";
import { chainWorkflow as chain, makeTempDir } from "../fixtures/workflows/temp-dir.ts";

const temp = makeTempDir();
const tmp = temp.dir;
const write = temp.write;
afterAll(() => temp.remove());

describe("targets outside the fixtures folder", () => {
  it("sees the new content when the same file is loaded again after an edit", async () => {
    write("reload.ts", chain("reload", '"version one"'));
    const first = await loadTarget("reload.ts:reload", tmp);
    write("reload.ts", chain("reload", '"version two"'));
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
