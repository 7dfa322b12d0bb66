// Graph checks at finalize(): every GraphError case names the workflow and the nodes involved,
// and a graph that closes gets generations, edge kinds, options and descriptions.
import { describe, expect, it } from "vitest";
import { type EdgeRef, isGraphError, workflow } from "../../src/authoring/index.ts";

type Edges = Record<string, EdgeRef>;

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(isGraphError(err)).toBe(true);
    return (err as Error).message;
  }
  throw new Error("expected a GraphError");
}

describe("graph checks", () => {
  it("records everything without throwing until finalize()", () => {
    const wf = workflow("not a name");
    expect(() => wf.node(42 as any).node({ retries: -1 } as any, "x" as any)).not.toThrow();
    expect(() => wf.finalize()).toThrow(/workflow "not a name" has 5 problems/);
  });

  it("requires a valid workflow name", () => {
    const wf = workflow("9lives");
    wf.node({ start: true }, async function a() {});
    expect(messageOf(() => wf.finalize())).toMatch(
      /workflow "9lives".*not a valid identifier \(\[A-Za-z_\]\[A-Za-z0-9_\]\*\)/,
    );
  });

  it("requires exactly one start node", () => {
    const none = workflow("w");
    none.node(async function a() {});
    expect(messageOf(() => none.finalize())).toMatch(/workflow "w": there is no start node/);
    const two = workflow("w");
    two.node({ start: true }, async function a({ b }: Edges) {
      return b;
    });
    two.node({ start: true }, async function b() {});
    expect(messageOf(() => two.finalize())).toMatch(/2 nodes are marked start \(a, b\)/);
  });

  it("requires every edge to name a node", () => {
    const wf = workflow("w");
    wf.node({ start: true }, async function a({ ghost }: Edges) {
      return ghost;
    });
    expect(messageOf(() => wf.finalize())).toMatch(
      /node "a": edge "ghost" names no node.*nodes: a/,
    );
  });

  it("requires unique node names", () => {
    const wf = workflow("w");
    wf.node({ start: true }, async function a({ b }: Edges) {
      return b;
    });
    wf.node(async function b() {});
    wf.node({ name: "b" }, async () => 1);
    expect(messageOf(() => wf.finalize())).toMatch(/node name "b" is used by 2 nodes/);
  });

  it("requires every node to be reachable from the start", () => {
    const wf = workflow("w");
    wf.node({ start: true }, async function a() {});
    wf.node(async function island() {});
    expect(messageOf(() => wf.finalize())).toMatch(
      /node "island" is not reachable from the start node "a"/,
    );
  });

  it("requires a join to declare a payload slot, and refuses a start join", () => {
    const wf = workflow("w");
    wf.node({ start: true }, async function a({ j }: Edges) {
      return j;
    });
    wf.node({ join: true }, async function j() {});
    expect(messageOf(() => wf.finalize())).toMatch(
      /node "j": a join must declare a payload slot.*async function j\(\{\}, arrivals, ctx\)/,
    );
    const startJoin = workflow("w");
    startJoin.node({ start: true, join: true }, async function s({}, arrivals: unknown) {
      return arrivals;
    });
    expect(messageOf(() => startJoin.finalize())).toMatch(
      /node "s": the start node cannot be a join/,
    );
  });

  it("validates the backoff option and keeps a valid one", () => {
    const bad = workflow("w");
    bad.node(
      { start: true, backoff: { initial: -1, factor: 0.5, max: 0, jitter: "yes", wait: 1 } } as any,
      async function a() {},
    );
    const message = messageOf(() => bad.finalize());
    expect(message).toMatch(/backoff: unknown field "wait"/);
    expect(message).toMatch(/backoff.initial must be a positive number of seconds, got -1/);
    expect(message).toMatch(/backoff.factor must be a number >= 1, got 0.5/);
    expect(message).toMatch(/backoff.jitter must be a boolean/);
    const good = workflow("g");
    good.node({ start: true, backoff: { initial: 1, max: 30 } }, async function a() {});
    expect(good.finalize().nodes.get("a")!.backoff).toEqual({ initial: 1, max: 30 });
  });

  it("validates node options", () => {
    const wf = workflow("w");
    const opts = { start: true, retries: 1.5, timeout: 0, priority: "high", retry: 3, label: 7 };
    wf.node(opts as any, async function a() {});
    const message = messageOf(() => wf.finalize());
    expect(message).toMatch(/has 5 problems/);
    expect(message).toMatch(/node "a": unknown option "retry"/);
    expect(message).toMatch(/node "a": label must be a string/);
    expect(message).toMatch(/node "a": retries must be a non-negative integer, got 1.5/);
    expect(message).toMatch(/node "a": timeout must be a positive number of seconds, got 0/);
    expect(message).toMatch(/node "a": priority must be an integer, got "high"/);
  });
});

describe("a graph that closes", () => {
  function loopingGraph() {
    const wf = workflow("loop");
    wf.node({ start: true, retries: 3, timeout: 1.5 }, async function a({ b, c }: Edges) {
      return [b, c];
    });
    wf.node({ priority: 5, label: "Bee" }, async function b({ a, j }: Edges) {
      return [a, j];
    });
    wf.node(async function c({ c: self, j }: Edges) {
      return [self, j];
    });
    wf.node({ join: true, description: "Joins." }, async function j({}, arrivals: unknown) {
      /** The body's own doc comment, overridden by options.description. */
      return arrivals;
    });
    return wf;
  }

  it("numbers generations breadth-first and classifies edges", () => {
    const graph = loopingGraph().finalize();
    expect(graph.start).toBe("a");
    expect([...graph.nodes.values()].map((n) => [n.name, n.generation])).toEqual([
      ["a", 0],
      ["b", 1],
      ["c", 1],
      ["j", 2],
    ]);
    expect(graph.edges).toEqual([
      { from: "a", to: "b", kind: "forward" },
      { from: "a", to: "c", kind: "forward" },
      { from: "b", to: "a", kind: "back" },
      { from: "b", to: "j", kind: "join" },
      { from: "c", to: "c", kind: "back" },
      { from: "c", to: "j", kind: "join" },
    ]);
  });

  it("keeps declared options, leaves the rest null unless defaults are given", () => {
    const wf = loopingGraph();
    const plain = wf.finalize().nodes;
    expect(plain.get("a")).toMatchObject({ retries: 3, timeout: 1.5, priority: null, label: "a" });
    expect(plain.get("b")).toMatchObject({ retries: null, priority: 5, label: "Bee" });
    expect(plain.get("j")).toMatchObject({ join: true, hasPayload: true, description: "Joins." });
    const withDefaults = wf.finalize({ retries: 1, priority: 0 }).nodes;
    expect(withDefaults.get("a")).toMatchObject({ retries: 3, priority: 0, timeout: 1.5 });
    expect(withDefaults.get("b")).toMatchObject({ retries: 1, priority: 5, timeout: null });
  });

  it("takes descriptions from options, then loader hints, then the body's doc comment", () => {
    const wf = workflow("docs");
    wf.node({ start: true }, async function a({ b }: Edges) {
      /** From the body. */
      return b;
    });
    wf.node(async function b() {
      return 1;
    });
    expect(wf.finalize().nodes.get("a")!.description).toBe("From the body.");
    expect(wf.finalize().nodes.get("b")!.description).toBeNull();
    const hinted = wf.finalize({}, { descriptions: { a: "From the file.", b: "B's doc." } });
    expect(hinted.nodes.get("a")!.description).toBe("From the file.");
    expect(hinted.nodes.get("b")!.description).toBe("B's doc.");
  });

  it("records plugin declarations as given", () => {
    const wf = workflow("w");
    // Raw declarations are kept as given (plain JavaScript authors get no type checks).
    const action = { name: "approve", title: "Approve" } as any;
    wf.action(action).panel({ name: "summary", kind: "markdown" } as any);
    expect(wf.actions).toEqual([action]);
    expect(wf.panels).toEqual([{ name: "summary", kind: "markdown" }]);
  });
});
