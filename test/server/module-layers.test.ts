// The layering of src/ (docs/architecture.md "Who imports whom"), read from the import lines
// themselves: no import cycle between top-level modules, lib/ needing nothing of ours,
// authoring/ (the pure API the engine and workflow files use) needing only lib/, and the
// package entry reaching only authoring/.
//
// Every relative specifier of every import, `export ... from` and `import()` counts, type-only
// imports included: a type import is erased when compiled, but it still ties one module's
// meaning to another's, and the package's declarations (tsconfig.types.json) follow them.
// The exceptions below are the edges that remain on purpose, each with its reason; an
// exception that no import uses any more fails the test, so the list cannot go stale.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

/** Import edges the cycle check leaves out: `from` modules or files of src/, `to` a module. */
interface Exception {
  from: string[];
  to: string;
  why: string;
}

const EXCEPTIONS: Exception[] = [
  {
    from: ["authoring/plugin-declarations.ts"],
    to: "service",
    why:
      "type-only: a plugin's ctx answers runs and work-log entries as the HTTP API shows them " +
      "(RunDetail, LogEntry), whose types are the service's zod schemas; a copy in authoring " +
      "could drift from what the routes send",
  },
  {
    // The plugin compiler (compile*, input-model, declaration-reader, types) is not listed:
    // the loader and the service's views use it, so it must stay free of the service.
    from: [
      "plugins/builtin.ts",
      "plugins/manifest.ts",
      "plugins/plugin-context.ts",
      "plugins/plugin-host.ts",
      "plugins/scope.ts",
    ],
    to: "service",
    why:
      "the plugin host runs plugin code as a client of the service (its use cases, errors and " +
      "schemas), the way the HTTP routes do, and the manifest is listed in the service's " +
      "schemas, while the service lists each workflow's compiled plugin (WorkflowOut.plugin) " +
      "and reserves the built-in plugin's name",
  },
  {
    from: ["mcp/agent-mcp.ts"],
    to: "http",
    why:
      "the MCP server shares the task-token check and route types of the HTTP agent routes, " +
      "and the HTTP app mounts it at /mcp/agent",
  },
];

/** The module a file of src/ belongs to: its top-level folder, `index` for the package entry. */
function moduleOf(file: string): string {
  const [top, ...rest] = file.split("/");
  return rest.length === 0 ? top.replace(/\.(ts|mjs)$/, "") : top;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mjs)$/.test(e.name))
    .map((e) => path.relative(SRC, path.join(e.parentPath, e.name)).split(path.sep).join("/"));
}

/** Every file of src/ another file of src/ imports, by the importing file. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(path.join(SRC, file), "utf8");
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((s) => s.startsWith("."))
      .map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s)));
    graph.set(file, targets);
  }
  return graph;
}

type ModuleEdges = Map<string, Map<string, string[]>>;

/** Module -> module -> the `file -> file` imports that make the edge, exceptions apart. */
function moduleEdges(files: Map<string, string[]>, used: Set<Exception>): ModuleEdges {
  const edges: ModuleEdges = new Map();
  for (const [file, targets] of files) {
    const from = moduleOf(file);
    if (!edges.has(from)) edges.set(from, new Map());
    for (const target of targets) {
      const to = moduleOf(target);
      if (to === from) continue;
      const exception = EXCEPTIONS.find(
        (e) => (e.from.includes(from) || e.from.includes(file)) && e.to === to,
      );
      if (exception) {
        used.add(exception);
        continue;
      }
      const out = edges.get(from)!;
      out.set(to, [...(out.get(to) ?? []), `${file} -> ${target}`]);
    }
  }
  return edges;
}

/** The shortest cycle through `start`, as modules (first repeated last), or null. */
function cycleThrough(start: string, edges: ModuleEdges): string[] | null {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const next of edges.get(at)?.keys() ?? []) {
      if (next === start) {
        const path = [start];
        for (let m = at; m !== start; m = previous.get(m)!) path.splice(1, 0, m);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, at);
        queue.push(next);
      }
    }
  }
  return null;
}

/** Each cycle found, one line per hop with an import that makes it. */
function describeCycles(edges: ModuleEdges): string[] {
  const seen = new Set<string>();
  const found: string[] = [];
  for (const start of [...edges.keys()].sort()) {
    const cycle = cycleThrough(start, edges);
    if (!cycle) continue;
    const key = [...new Set(cycle)].sort().join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    const hops = cycle.slice(1).map((to, i) => {
      const via = edges.get(cycle[i])!.get(to)!;
      return `  ${cycle[i]} -> ${to}  (${via[0]}${via.length > 1 ? ` and ${via.length - 1} more` : ""})`;
    });
    found.push(`${cycle.join(" -> ")}\n${hops.join("\n")}`);
  }
  return found;
}

describe("module layers of src/", () => {
  const files = importGraph();
  const used = new Set<Exception>();
  const edges = moduleEdges(files, used);
  const importsOf = (module: string) => [...(edges.get(module)?.keys() ?? [])].sort();

  it("has no import cycle between top-level modules", () => {
    expect(describeCycles(edges).join("\n\n")).toBe("");
  });

  it("uses every listed exception", () => {
    const unused = EXCEPTIONS.filter((e) => !used.has(e));
    expect(unused.map((e) => `${e.from.join(", ")} -> ${e.to}`)).toEqual([]);
  });

  it("keeps lib/ free of the project's modules", () => {
    expect(importsOf("lib")).toEqual([]);
  });

  it("keeps authoring/ to the pure API: it needs lib/ only", () => {
    expect(importsOf("authoring")).toEqual(["lib"]);
  });

  it("keeps the package entry to authoring/", () => {
    expect(importsOf("index")).toEqual(["authoring"]);
  });

  it("reads every module of src/", () => {
    // A sanity check of the walk itself: the modules the architecture names are all found.
    expect([...edges.keys()]).toEqual(
      expect.arrayContaining(["authoring", "engine", "lib", "loading", "plugins", "service"]),
    );
  });
});
