// Reading a node's signature from plain JavaScript functions (no tsx involved): each accepted
// form, and each rejected shape as the GraphError that finalize() raises.
import { describe, expect, it } from "vitest";
import {
  type EdgeRef,
  type GraphError,
  isGraphError,
  workflow,
} from "../../src/authoring/index.ts";
import { readSignature } from "../../src/authoring/signature.ts";

function sig(fn: Function) {
  const read = readSignature(fn);
  if (!read.ok) throw new Error(read.problem);
  return read.signature;
}

/** Finalizes a one-node workflow "w" around `fn` and returns the GraphError it raises. */
function finalizeError(fn: unknown, options: Record<string, unknown> = {}): GraphError {
  const wf = workflow("w");
  wf.node({ start: true, ...options }, fn as () => void);
  try {
    wf.finalize();
  } catch (err) {
    expect(isGraphError(err)).toBe(true);
    return err as GraphError;
  }
  throw new Error("finalize() did not throw");
}

describe("accepted function forms", () => {
  it("reads a function declaration with edges, payload and ctx", () => {
    async function intake({ classify, reject }: any, ticket: unknown, ctx: unknown) {
      return [classify, reject, ticket, ctx];
    }
    expect(sig(intake)).toEqual({
      edges: ["classify", "reject"],
      hasPayload: true,
      hasCtx: true,
      bodyDoc: null,
    });
  });

  it("reads function expressions and arrows, with and without parentheses", () => {
    const expr = async function named({ a }: any) {
      return a;
    };
    const arrow = async ({ b, c }: any, payload: unknown) => [b, c, payload];
    expect(sig(expr)).toMatchObject({ edges: ["a"], hasPayload: false, hasCtx: false });
    expect(sig(arrow)).toMatchObject({ edges: ["b", "c"], hasPayload: true, hasCtx: false });
    expect(sig(() => 1)).toMatchObject({ edges: [], hasPayload: false, hasCtx: false });
  });

  it("reads an async method taken from an object literal", () => {
    const holder = {
      async intake({ a }: any, p: unknown, ctx: unknown) {
        return [a, p, ctx];
      },
    };
    expect(sig(holder.intake)).toMatchObject({ edges: ["a"], hasPayload: true, hasCtx: true });
  });

  it("reads the property keys, not the local names, including string-literal keys", () => {
    const fn = new Function("return async function n({ review: r, 'pub-lish': p, \"x\": y }) {}")();
    expect(sig(fn).edges).toEqual(["review", "pub-lish", "x"]);
  });

  it("copes with multi-line signatures, comments and defaults", () => {
    const fn = new Function(`return async function n(
      // the edges
      { first /* one */, second = null, third: t = 3 } = {},
      /* payload */ payload = { deep: { x: [1, 2] } }, // trailing
      ctx
    ) { /** Says what n does. */ return 1; }`)();
    expect(sig(fn)).toEqual({
      edges: ["first", "second", "third"],
      hasPayload: true,
      hasCtx: true,
      bodyDoc: "Says what n does.",
    });
  });

  it("takes a doc comment only when it is the first thing in the body", () => {
    const tagged = new Function(
      "return function n() {\n  /**\n   * Line one.\n   * Line two.\n   * @param x ignored\n   */\n  return 1;\n}",
    )();
    const late = new Function("return function n() { const a = 1; /** too late */ return a; }")();
    const plain = new Function("return function n() { /* not a doc */ return 1; }")();
    expect(sig(tagged).bodyDoc).toBe("Line one.\nLine two.");
    expect(sig(late).bodyDoc).toBeNull();
    expect(sig(plain).bodyDoc).toBeNull();
  });

  it("finalizes each form into the same node shape", () => {
    const wf = workflow("forms");
    wf.node({ start: true }, async function a({ b }: Record<string, EdgeRef>) {
      return b;
    });
    const holder = {
      async b({ c }: any, p: unknown) {
        return c(p);
      },
    };
    wf.node(holder.b);
    wf.node({ name: "c" }, async ({}, p: unknown) => p);
    const nodes = wf.finalize().nodes;
    expect([...nodes.keys()]).toEqual(["a", "b", "c"]);
    expect(nodes.get("c")).toMatchObject({ edges: [], hasPayload: true, label: "c" });
  });
});

describe("rejected shapes, raised at finalize()", () => {
  it("rejects a rest element in the edges pattern", () => {
    const err = finalizeError(async function n({ a, ...more }: any) {
      return [a, more];
    });
    expect(err.message).toMatch(/workflow "w".*node "n".*rest element.*name every edge/s);
  });

  it("rejects a computed key", () => {
    const key = "a";
    const err = finalizeError(async function n({ [key]: a }: any) {
      return a;
    });
    expect(err.message).toMatch(/node "n".*computed key.*literally/);
  });

  it("rejects a first parameter that is not an object pattern", () => {
    const ident = finalizeError(async function n(edges: unknown) {
      return edges;
    });
    const array = finalizeError(async function n([a]: any) {
      return a;
    });
    expect(ident.message).toMatch(/node "n".*first parameter is not an object pattern.*\{\}/);
    expect(array.message).toMatch(/node "n".*first parameter is an array pattern/);
  });

  it("rejects a rest parameter and a fourth parameter", () => {
    const rest = finalizeError(async function n({ a }: any, ...args: unknown[]) {
      return [a, args];
    });
    const four = finalizeError(async function n(
      { a }: any,
      p: unknown,
      ctx: unknown,
      extra: unknown,
    ) {
      return [a, p, ctx, extra];
    });
    expect(rest.message).toMatch(/node "n".*rest parameter is not allowed/);
    expect(four.message).toMatch(/node "n".*4 parameters.*at most \(edges, payload, ctx\)/);
  });

  it("rejects an edge declared twice", () => {
    const fn = new Function("return async function n({ a, a: again }) {}")();
    expect(finalizeError(fn).message).toMatch(/node "n".*edge "a" is declared twice/);
  });

  it("rejects a function with no name unless options.name is given", () => {
    const err = finalizeError(async ({ a }: any) => a);
    expect(err.message).toMatch(/workflow "w".*node #1.*no name.*\{ name: \.\.\. \}/);
    const wf = workflow("w");
    wf.node({ start: true, name: "named" }, async () => 1);
    expect(wf.finalize().start).toBe("named");
  });

  it("rejects source that does not parse, saying minified code is unsupported", () => {
    const bound = async function n() {}.bind(null);
    Object.defineProperty(bound, "name", { value: "n" });
    const err = finalizeError(bound);
    expect(err.message).toMatch(/node "n".*does not parse.*minified.*unsupported/);
    expect(finalizeError(Math.max, { name: "max" }).message).toMatch(/node "max".*minified/);
  });

  it("rejects a value that is not a function and extra arguments", () => {
    expect(finalizeError("nope").message).toMatch(/node #1: expected a function, got string/);
    const wf = workflow("w");
    (wf.node as any)({ start: true }, async function n() {}, "extra");
    expect(() => wf.finalize()).toThrow(/node "n": wf.node takes \(fn\) or \(options, fn\)/);
  });
});
