// The agent side (the ACP runner, the agent surface and its MCP server) reaches the engine only
// through its public entry, and writes only through the attempt API: no unit of work, store
// transaction, event or dispatcher wake of its own (docs/architecture.md, "The attempt API").
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["src/agents", "src/service/agent", "src/mcp"];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const files = ROOTS.flatMap(sources);

describe("the agent side of the attempt API", () => {
  it("imports the engine only through src/engine/index.ts", () => {
    const deep = files.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from "([^"]*\/engine\/[^"]+)"/g)]
        .map((m) => m[1])
        .filter((spec) => !spec.endsWith("/engine/index.ts"))
        .map((spec) => `${file}: ${spec}`),
    );
    expect(files.length).toBeGreaterThan(0);
    expect(deep).toEqual([]);
  });

  it("writes nothing itself: no unit of work, transaction, emit or wake", () => {
    const writes = /\buow\.run\b|\bwork\.tx\b|\.transact\(|\.emit(At|Unstored)?\(|\.wake\(/;
    const found = files.filter((file) => writes.test(readFileSync(file, "utf8")));
    expect(found).toEqual([]);
  });
});
