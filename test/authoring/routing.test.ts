// The return value is the routing: every row of the routing table, edge references, JSON
// conversion of payloads, and the failure policy (also for errors from another module copy).
import { fileURLToPath, pathToFileURL } from "node:url";
import { tsImport } from "tsx/esm/api";
import { describe, expect, it } from "vitest";
import {
  classifyFailure,
  type EdgeRef,
  edgeRefs,
  GraphError,
  isEdgeRef,
  isGraphError,
  NodeTimeout,
  NonRetryable,
  route,
  toJson,
  workflow,
} from "../../src/authoring/index.ts";

type Edges = Record<string, EdgeRef>;

function graph() {
  const wf = workflow("r");
  wf.node({ start: true }, async function two({ one, none }: Edges) {
    return [one, none];
  });
  wf.node(async function one({ none }: Edges) {
    return none;
  });
  wf.node(async function none() {});
  return { wf, graph: wf.finalize() };
}

describe("route", () => {
  const { wf, graph: g } = graph();
  const refs = edgeRefs(g.nodes.get("two")!);

  it("gives one EdgeRef per declared edge, cached per node", () => {
    expect(Object.keys(refs)).toEqual(["one", "none"]);
    expect(isEdgeRef(refs.one)).toBe(true);
    expect(refs.one!.edge).toBe("one");
    expect(edgeRefs(g.nodes.get("two")!)).toBe(refs);
  });

  it("routes a bare ref without payload and a called ref with one", () => {
    expect(route(g, "two", refs.one)).toEqual({
      kind: "transitions",
      fanout: false,
      transitions: [{ edge: "one", present: false, payload: null }],
    });
    expect(route(g, "two", refs.none!({ at: new Date(0) }))).toEqual({
      kind: "transitions",
      fanout: false,
      transitions: [{ edge: "none", present: true, payload: { at: "1970-01-01T00:00:00.000Z" } }],
    });
  });

  it("fans out a non-empty list of refs and transitions, even of one element", () => {
    expect(route(g, "two", [refs.one!(1), refs.one, refs.none!(undefined)])).toEqual({
      kind: "transitions",
      fanout: true,
      transitions: [
        { edge: "one", present: true, payload: 1 },
        { edge: "one", present: false, payload: null },
        { edge: "none", present: true, payload: null },
      ],
    });
    expect(route(g, "two", [refs.one])).toMatchObject({
      fanout: true,
      transitions: [{ edge: "one" }],
    });
  });

  it("ends the branch with no value on an empty list, whatever the edges", () => {
    const ended = { kind: "transitions", fanout: false, transitions: [] };
    expect(route(g, "two", [])).toEqual(ended);
    expect(route(g, "none", [])).toEqual(ended);
  });

  it("ends with the value from a node with no edges", () => {
    expect(route(g, "none", { ok: true })).toEqual({ kind: "end", value: { ok: true } });
    expect(route(g, "none", undefined)).toEqual({ kind: "end", value: null });
    expect(route(g, "none", [1, 2])).toEqual({ kind: "end", value: [1, 2] });
  });

  it("sends a plain value along the only edge", () => {
    expect(route(g, "one", "hello")).toEqual({
      kind: "transitions",
      fanout: false,
      transitions: [{ edge: "none", present: true, payload: "hello" }],
    });
  });

  it("refuses a plain value from a node with two edges", () => {
    expect(() => route(g, "two", 5)).toThrow(GraphError);
    expect(() => route(g, "two", 5)).toThrow(/node "two" of workflow "r".*2 edges \(one, none\)/);
  });

  it("refuses a ref to an edge the node did not declare", () => {
    expect(() => route(g, "one", wf.ref("two"))).toThrow(
      /node "one" of workflow "r" returned a reference to "two", which is not one of its edges/,
    );
    expect(() => route(g, "none", [wf.ref("one")])).toThrow(/\(declared: none\)/);
    expect(route(g, "one", wf.ref("none"))).toMatchObject({ transitions: [{ edge: "none" }] });
  });

  it("refuses a list mixing refs and plain values", () => {
    expect(() => route(g, "two", [refs.one, 3])).toThrow(/mixing 1 edge references with 1 plain/);
  });

  it("dead-letters a payload JSON cannot carry", () => {
    let thrown: unknown;
    try {
      route(g, "one", { n: 1n });
    } catch (err) {
      thrown = err;
    }
    expect(classifyFailure(thrown)).toMatchObject({ retryable: false });
    expect((thrown as Error).message).toMatch(/\$\.n.*BigInt/);
  });
});

describe("toJson", () => {
  class Point {
    x = 1;
    y = 2;
    get sum() {
      return this.x + this.y;
    }
  }

  it("follows JSON.stringify: toJSON, class instances, undefined, non-finite numbers", () => {
    expect(toJson(new Date("2024-05-01T10:00:00Z"))).toBe("2024-05-01T10:00:00.000Z");
    expect(toJson(new Point())).toEqual({ x: 1, y: 2 });
    expect(toJson(undefined)).toBeNull();
    expect(toJson([undefined, () => 1, Symbol("s")])).toEqual([null, null, null]);
    expect(toJson({ a: undefined, b: () => 1, c: NaN, d: -Infinity })).toEqual({
      c: null,
      d: null,
    });
    expect(toJson({ nested: { toJSON: (key: string) => `key=${key}` } })).toEqual({
      nested: "key=nested",
    });
    expect(toJson(new Map([[1, 2]]))).toEqual({});
  });

  it("allows shared references that are not cycles", () => {
    const shared = { v: 1 };
    expect(toJson({ a: shared, b: [shared] })).toEqual({ a: { v: 1 }, b: [{ v: 1 }] });
  });

  it("throws NonRetryable on a BigInt or a cycle, saying where", () => {
    expect(() => toJson({ list: [1, 2n] })).toThrow(NonRetryable);
    expect(() => toJson({ list: [1, 2n] })).toThrow(/\$\.list\[1\].*BigInt 2n.*string or a number/);
    const loop: Record<string, unknown> = { name: "x" };
    loop.self = { back: loop };
    expect(() => toJson(loop)).toThrow(/\$\.self\.back.*cycle/);
  });
});

describe("classifyFailure", () => {
  it("dead-letters GraphError and NonRetryable, retries anything else", () => {
    expect(classifyFailure(new NonRetryable("empty ticket"))).toEqual({
      retryable: false,
      error: "NonRetryable: empty ticket",
    });
    expect(classifyFailure(new GraphError("bad\nrouting"))).toEqual({
      retryable: false,
      error: "GraphError: bad routing",
    });
    expect(classifyFailure(new Error("boom"))).toEqual({ retryable: true, error: "Error: boom" });
    expect(classifyFailure(new NodeTimeout(30))).toEqual({
      retryable: true,
      error: "NodeTimeout: node timed out after 30s",
    });
  });

  it("describes thrown non-errors and unnamed Error subclasses", () => {
    class Fatal extends Error {}
    class Custom extends NonRetryable {}
    expect(classifyFailure("oops")).toEqual({ retryable: true, error: "oops" });
    expect(classifyFailure({ code: 7 }).error).toBe('thrown value: {"code":7}');
    expect(classifyFailure(undefined).error).toBe("thrown value: undefined");
    expect(classifyFailure(new Fatal("x")).error).toBe("Fatal: x");
    expect(classifyFailure(new Custom("y")).retryable).toBe(false);
  });

  it("recognises errors from a second copy of the module", async () => {
    const entry = fileURLToPath(new URL("../../src/index.ts", import.meta.url));
    const copy = await tsImport(pathToFileURL(entry).href, import.meta.url);
    expect(copy.NonRetryable).not.toBe(NonRetryable);
    const foreign = new copy.NonRetryable("from the copy");
    expect(foreign instanceof NonRetryable).toBe(false);
    expect(classifyFailure(foreign)).toEqual({
      retryable: false,
      error: "NonRetryable: from the copy",
    });
    expect(isGraphError(new copy.GraphError("g"))).toBe(true);
    expect(classifyFailure(new copy.NodeTimeout(5)).retryable).toBe(true);
  });
});
