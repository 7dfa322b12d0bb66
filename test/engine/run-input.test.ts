// A run's input: the start node's payload holds it beside title and description, the run keeps
// it, and a start node's input schema (zod or JSON Schema) is checked at submit.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { GraphError, workflow } from "../../src/authoring/index.ts";
import { ServiceError } from "../../src/service/errors.ts";
import { type Harness, startHarness } from "../support/engine-harness.ts";

let h!: Harness;
let opened: Harness | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

async function harness(): Promise<Harness> {
  h = await startHarness();
  opened = h;
  return h;
}

const finished = (runId: string) => (e: { run_id: string | null }) => e.run_id === runId;

/** A one-node workflow whose output is the payload its start node received. */
function echo(name: string, options: Record<string, unknown> = {}) {
  const wf = workflow(name);
  wf.node({ start: true, ...options } as any, async function start({}: any, payload: unknown) {
    return payload;
  });
  return wf;
}

async function received(name: string, body: { title: string; input?: unknown }) {
  const { run_id } = await h.service.submitRun(name, body);
  const done = await h.waitEvent("run.completed", finished(run_id));
  return { run_id, payload: (done.data as { output: unknown }).output };
}

describe("run input", () => {
  it("reaches the start node beside title and description, and shows in the run", async () => {
    await harness();
    h.register(echo("plain"));
    const input = { repo: "a/b", ids: [1, 2], deep: { ok: true } };
    const { run_id, payload } = await received("plain", { title: "t", input });
    expect(payload).toStrictEqual({ title: "t", description: "", input });
    expect((await h.service.getRun(run_id)).input).toStrictEqual(input);
    // Any JSON value, a scalar too.
    expect((await received("plain", { title: "s", input: "text" })).payload).toMatchObject({
      input: "text",
    });
  });

  it("leaves a submit without input as it was: no input in the payload nor the run", async () => {
    await harness();
    h.register(echo("plain"));
    for (const body of [{ title: "t" }, { title: "t", input: null }]) {
      const { run_id, payload } = await received("plain", body);
      expect(payload).toStrictEqual({ title: "t", description: "" });
      expect("input" in (await h.service.getRun(run_id))).toBe(false);
    }
    expect("input_schema" in (await h.service.getWorkflow("plain"))).toBe(false);
  });

  it("checks the input against the start node's zod schema and stores the parsed value", async () => {
    await harness();
    const schema = z.object({ repo: z.string(), depth: z.int().min(1).default(3) });
    h.register(echo("typed", { input: schema }));
    const { run_id, payload } = await received("typed", { title: "t", input: { repo: "x" } });
    expect(payload).toStrictEqual({ title: "t", description: "", input: { repo: "x", depth: 3 } });
    expect((await h.service.getRun(run_id)).input).toStrictEqual({ repo: "x", depth: 3 });

    const refused = await h.service
      .submitRun("typed", { title: "t", input: { depth: 0 } } as any)
      .catch((e) => e);
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused.code).toBe("validation");
    const locs = refused.extras.errors.map((e: { loc: unknown[] }) => e.loc);
    expect(locs).toEqual(
      expect.arrayContaining([
        ["body", "input", "repo"],
        ["body", "input", "depth"],
      ]),
    );
    // With a schema, an absent input is checked too.
    const missing = await h.service.submitRun("typed", { title: "t" }).catch((e) => e);
    expect(missing.code).toBe("validation");
    expect(missing.extras.errors[0].loc).toEqual(["body", "input"]);
    expect((await h.service.listRuns({} as any)).length).toBe(1);

    const view = await h.service.getWorkflow("typed");
    expect(view.input_schema).toMatchObject({
      type: "object",
      properties: { repo: { type: "string" }, depth: { type: "integer", default: 3 } },
      required: ["repo"],
    });
  });

  it("takes a JSON Schema object as the input schema too", async () => {
    await harness();
    const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
    h.register(echo("json", { input: schema }));
    expect((await received("json", { title: "t", input: { n: 2 } })).payload).toMatchObject({
      input: { n: 2 },
    });
    const refused = await h.service.submitRun("json", { title: "t", input: {} }).catch((e) => e);
    expect(refused.code).toBe("validation");
    expect((await h.service.getWorkflow("json")).input_schema).toStrictEqual(schema);
  });

  it("refuses an input schema on a node other than the start node", () => {
    const wf = workflow("misplaced");
    wf.node({ start: true }, async function a({ b }: any) {
      return b(1);
    });
    wf.node({ input: z.string() } as any, async function b({}: any) {
      return 1;
    });
    expect(() => wf.finalize()).toThrow(/belongs on the start node only/);
    expect(() => wf.finalize()).toThrow(GraphError);
  });
});
