// The shipped examples load through the real loader (importing "yardmaster" by package name)
// and have the graphs their comments describe.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { classifyFailure, edgeRefs, type FinalGraph, route } from "../../src/authoring/index.ts";
import { loadTarget, readSource } from "../../src/loading/index.ts";
import { eventually, startTestServer } from "../support/server-harness.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

function shape(graph: FinalGraph) {
  return Object.fromEntries(
    [...graph.nodes.values()].map((n) => [n.name, { edges: n.edges, generation: n.generation }]),
  );
}

describe("examples/triage.ts", () => {
  it("is intake -> classify -> review -> publish (join), with a reject path", async () => {
    const { graph } = await loadTarget("examples/triage.ts:triage", root);
    expect(graph.start).toBe("intake");
    expect(shape(graph)).toEqual({
      intake: { edges: ["classify", "reject"], generation: 0 },
      classify: { edges: ["review"], generation: 1 },
      review: { edges: ["publish"], generation: 2 },
      publish: { edges: [], generation: 3 },
      reject: { edges: [], generation: 1 },
    });
    expect(graph.nodes.get("intake")).toMatchObject({ retries: 2, timeout: 30, hasCtx: true });
    expect(graph.nodes.get("publish")).toMatchObject({ join: true, hasPayload: true });
    expect(graph.edges.find((e) => e.to === "publish")?.kind).toBe("join");
  });

  it("fans out one review per part, and rejects without retrying", async () => {
    const { graph } = await loadTarget("examples/triage.ts:triage", root);
    const call = async (name: string, payload?: unknown) => {
      const node = graph.nodes.get(name)!;
      return route(graph, name, await node.fn(edgeRefs(node), payload));
    };
    const fanned = await call("classify", { text: "a b", parts: ["a", "b"] });
    expect(fanned).toMatchObject({
      fanout: true,
      transitions: [{ payload: "a" }, { payload: "b" }],
    });
    expect(await call("review", "a")).toMatchObject({
      transitions: [{ edge: "publish", payload: { part: "a", ok: true } }],
    });
    const failure = await call("reject").catch((err: unknown) => classifyFailure(err));
    expect(failure).toEqual({ retryable: false, error: "NonRetryable: empty ticket" });
  });
});

describe("examples/approval.ts", () => {
  it("routes from the asking node to ship, revise (looping back) or drop", async () => {
    const loaded = await loadTarget("examples/approval.ts:approval", root);
    expect(loaded.graph.start).toBe("draft");
    expect(shape(loaded.graph)).toEqual({
      draft: { edges: ["ship", "revise", "drop"], generation: 0 },
      revise: { edges: ["draft"], generation: 1 },
      ship: { edges: [], generation: 1 },
      drop: { edges: [], generation: 1 },
    });
    expect(loaded.graph.edges).toContainEqual({ from: "revise", to: "draft", kind: "back" });
    expect(loaded.graph.nodes.get("draft")!.description).toBe(
      "Writes a draft and asks whether to ship it.",
    );
  });
});

describe("examples/demo.ts", () => {
  it("is a small fan-out and join with descriptions and source lines", async () => {
    const loaded = await loadTarget("examples/demo.ts:demo", root);
    expect(shape(loaded.graph)).toEqual({
      plan: { edges: ["brew"], generation: 0 },
      brew: { edges: ["taste"], generation: 1 },
      taste: { edges: ["serve"], generation: 2 },
      serve: { edges: [], generation: 3 },
    });
    expect(loaded.graph.nodes.get("serve")!.join).toBe(true);
    for (const node of loaded.graph.nodes.values()) expect(node.description).toBeTruthy();
    const source = await readSource(loaded);
    expect(source!.file).toBe(path.join(root, "examples/demo.ts"));
    expect(Object.keys(source!.nodes)).toEqual(["plan", "brew", "taste", "serve"]);
  });
});

describe("examples/scribe.ts", () => {
  it("runs the scripted agent; a misfit submission is repaired and the valid one published", {
    timeout: 30_000,
  }, async () => {
    const agent = path.join(root, "examples", "agents", "scripted-agent.mjs");
    const toml = [
      "[server]",
      'host = "127.0.0.1"',
      "port = 0",
      "[pools.default]",
      "capacity = 2",
      "[workflows.scribe]",
      `target = ${JSON.stringify(`${path.join(root, "examples", "scribe.ts")}:scribe`)}`,
      "[agents.default]",
      `command = [${JSON.stringify(process.execPath)}, ${JSON.stringify(agent)}]`,
    ].join("\n");
    const s = await startTestServer(toml);
    try {
      const script = {
        turns: [
          [{ text: "Reading the report.\n" }, { submit: { summary: "", label: "finance" } }],
          [{ submit: { summary: "Q3 up 4%", label: "finance" } }],
        ],
      };
      const body = { title: "Q3 report", description: JSON.stringify(script) };
      const { run_id } = (await s.call("POST", "/api/workflows/scribe/runs", body)).body;
      const run = await eventually(async () => {
        const r = (await s.call("GET", `/api/runs/${run_id}`)).body;
        return ["completed", "failed"].includes(r.status) && r;
      }, "the scribe run to end");
      expect(run).toMatchObject({ status: "completed", output: { summary: "Q3 up 4%" } });
      const log = (await s.call("GET", `/api/runs/${run_id}/log`)).body;
      expect(log).toContainEqual(
        expect.objectContaining({ kind: "deliverable", text: "**finance**: Q3 up 4%" }),
      );
      const events = (await s.call("GET", `/api/runs/${run_id}/events?limit=1000`)).body;
      const names = events.map((e: { name: string }) => e.name);
      expect(names).toContain("submission.rejected");
      expect(names).toContain("submission.repair");
      const draft = run.tasks.find((t: { node: string }) => t.node === "draft");
      const stream = (await s.call("GET", `/api/tasks/${draft.id}/stream?after=0`)).body;
      expect(stream.chunks[0]).toMatchObject({ kind: "text", text: "Reading the report.\n" });
    } finally {
      await s.close();
    }
  });
});
