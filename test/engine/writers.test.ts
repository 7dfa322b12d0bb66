// The engine is the only writer of state (docs/architecture.md, "Commands"): outside src/engine/
// and the stores that implement its Store interface, no module opens a unit of work or a store
// transaction, emits an event or wakes the dispatcher; they call the engine's commands (the
// agent side its attempt API). That imports go through src/engine/index.ts is the linter's
// check (biome.json); the agent side is checked here too because it used to reach inside.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const OWN_WRITERS = new Set(["src/engine", "src/stores"]);
const ROOTS = readdirSync("src", { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `src/${entry.name}`)
  .filter((dir) => !OWN_WRITERS.has(dir));
const AGENT_SIDE = ["src/agents", "src/service/agent", "src/mcp"];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const files = ROOTS.flatMap(sources);

describe("the engine is the only writer", () => {
  it("the agent side imports the engine only through src/engine/index.ts", () => {
    const agentFiles = AGENT_SIDE.flatMap(sources);
    const deep = agentFiles.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from "([^"]*\/engine\/[^"]+)"/g)]
        .map((m) => m[1])
        .filter((spec) => !spec.endsWith("/engine/index.ts"))
        .map((spec) => `${file}: ${spec}`),
    );
    expect(agentFiles.length).toBeGreaterThan(0);
    expect(deep).toEqual([]);
  });

  it("no module outside engine/ and stores/ opens a unit of work or transaction, emits or wakes", () => {
    const writes = /\buow\.run\b|\bwork\.tx\b|\.transact\(|\.emit(At|Unstored)?\(|\.wake\(/;
    expect(files.length).toBeGreaterThan(50);
    const found = files.filter((file) => writes.test(readFileSync(file, "utf8")));
    expect(found).toEqual([]);
  });
});
