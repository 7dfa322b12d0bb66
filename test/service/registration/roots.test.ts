// Registration runs the code of its target, so a target must be a script file or an installed
// package inside the workflow roots: never code carried in the request (a data: URL), a file
// elsewhere on the machine, or a link out of a root; and a load error names what failed without
// quoting the file. The server here names its own folder as its one root.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/server-harness.ts";
import { writeWorkflow } from "../../support/workflow-files.ts";

const SERVER = '[server]\nhost = "127.0.0.1"\nport = 0\nworkflow_roots = ["."]\n';

let s: TestServer;
let elsewhere: string;
beforeAll(async () => {
  s = await startTestServer(SERVER);
  elsewhere = mkdtempSync(path.join(tmpdir(), "ym-elsewhere-"));
});
afterAll(async () => {
  await s?.close();
  rmSync(elsewhere, { recursive: true, force: true });
});

/** A workflow file that leaves `marker` behind when it is imported: proof its code ran. */
const marking = (name: string, marker: string) => `import { writeFileSync } from "node:fs";
import { workflow } from "YARDMASTER";
writeFileSync(${JSON.stringify(marker)}, "ran");
export const ${name} = workflow("${name}");
${name}.node({ start: true }, async function only() { return 1; });
`;

async function refused(target: string, stage = "target") {
  const r = await s.call("POST", "/api/workflows", { target });
  expect(r.status, target).toBe(422);
  expect(r.body, target).toMatchObject({ code: "workflow_load_failed", target, stage });
  return r.body.detail as string;
}

describe("a registration target comes from inside the workflow roots", () => {
  it("refuses code carried in the target itself, without running it", async () => {
    const marker = path.join(elsewhere, "data-url-ran");
    const code = `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(marker)}, "x");`;
    await refused(`data:text/javascript,${encodeURIComponent(code)}:x`);
    await refused("http://127.0.0.1:9/flow.mjs:x");
    await refused("node:fs:x");
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses a file outside the roots, by path, by file: URL or through a link", async () => {
    const marker = path.join(elsewhere, "outside-ran");
    const outside = writeWorkflow(elsewhere, "outside.ts", marking("outside", marker));
    expect(await refused(`${outside}:outside`)).toMatch(/not inside a workflow root/);
    await refused(`${pathToFileURL(outside).href}:outside`);
    await refused(`../${path.relative(path.dirname(s.dir), outside)}:outside`);
    symlinkSync(outside, path.join(s.dir, "linked.ts"));
    await refused("linked.ts:outside");
    // A file that is not there says so only inside the roots.
    await refused(`${path.join(elsewhere, "absent.ts")}:x`);
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses a file that is not a script, such as a token file", async () => {
    mkdirSync(path.join(s.dir, "keys"), { recursive: true });
    writeFileSync(path.join(s.dir, "keys", "token"), "Zk3aB9_secretTokenValue\n");
    const detail = await refused("./keys/token:x");
    expect(detail).not.toContain("Zk3aB9");
  });

  it("registers a file inside a root, and a package from a root's node_modules", async () => {
    writeWorkflow(s.dir, "flows/inside.ts", marking("inside", path.join(s.dir, "inside-ran")));
    expect(
      (await s.call("POST", "/api/workflows", { target: "flows/inside.ts:inside" })).status,
    ).toBe(201);
    writeWorkflow(
      s.dir,
      "node_modules/packed-flows/package.json",
      '{ "name": "packed-flows", "type": "module", "exports": "./main.ts" }',
    );
    writeWorkflow(
      s.dir,
      "node_modules/packed-flows/main.ts",
      marking("packed", path.join(s.dir, "packed-ran")),
    );
    expect((await s.call("POST", "/api/workflows", { target: "packed-flows:packed" })).status).toBe(
      201,
    );
  });

  it("refuses a package subpath that walks out of its package", async () => {
    for (const target of ["packed-flows/../../x:x", "packed-flows/%2e%2e/x:x", "#flows:x"]) {
      expect(await refused(target)).toMatch(/is not a package name/);
    }
  });

  it("does not look for a package above the roots", async () => {
    // s.dir sits in the temp folder; a package installed there is outside the root.
    const marker = path.join(elsewhere, "above-ran");
    const above = path.join(
      path.dirname(s.dir),
      "node_modules",
      `above-${path.basename(elsewhere)}`,
    );
    mkdirSync(above, { recursive: true });
    writeWorkflow(above, "main.ts", marking("above", marker));
    writeFileSync(path.join(above, "package.json"), '{ "type": "module", "exports": "./main.ts" }');
    try {
      expect(await refused(`${path.basename(above)}:above`, "import")).toMatch(
        /Cannot find package/,
      );
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(above, { recursive: true, force: true });
      try {
        rmdirSync(path.dirname(above));
      } catch {}
    }
  });

  it("holds for a reload too", async () => {
    const outside = writeWorkflow(
      elsewhere,
      "inside.ts",
      marking("inside", path.join(elsewhere, "reload-ran")),
    );
    const r = await s.call("PUT", "/api/workflows/inside", { target: `${outside}:inside` });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: "workflow_load_failed", stage: "target" });
    expect(existsSync(path.join(elsewhere, "reload-ran"))).toBe(false);
  });
});

describe("a load error names what failed without quoting the file", () => {
  it("gives the class, file and line of a syntax error, eliding the source", async () => {
    writeWorkflow(s.dir, "bad/syntax.ts", 'export const a = 1;\nconst k = "Sekr1tValue" +* 3;\n');
    writeWorkflow(s.dir, "bad/syntax.mjs", "export const a = 1;\nlet k = Sekr1tValue other;\n");
    writeWorkflow(s.dir, "bad/data.js", "Sekr1tValue-and-more\n");
    const ts = await refused("bad/syntax.ts:a", "import");
    expect(ts).toMatch(/^TransformError: .*syntax\.ts:2:\d+: /);
    const mjs = await refused("bad/syntax.mjs:a", "import");
    expect(mjs).toMatch(/^SyntaxError at .*syntax\.mjs:2:\d+: Unexpected identifier/);
    const data = await refused("bad/data.js:a", "import");
    expect(data).toMatch(/^ReferenceError: … is not defined$/);
    for (const detail of [ts, mjs, data]) expect(detail).not.toContain("Sekr1t");
  });
});

describe("configuration rows", () => {
  it("refuse to start with a row outside the roots", async () => {
    const outside = writeWorkflow(
      elsewhere,
      "row.ts",
      marking("row", path.join(elsewhere, "row-ran")),
    );
    const toml = `${SERVER}[workflows.row]\ntarget = "${outside}:row"\n`;
    const dir = mkdtempSync(path.join(tmpdir(), "ym-rows-outside-"));
    try {
      await expect(startTestServer(toml, dir)).rejects.toThrow(
        /workflows\.row: .*stage target.*not inside a workflow root/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(existsSync(path.join(elsewhere, "row-ran"))).toBe(false);
  });
});
