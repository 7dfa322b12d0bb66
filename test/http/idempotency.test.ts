// The Idempotency-Key header of POST /api/workflows/{name}/runs on a real `yardmaster serve`:
// a replay answers the first run (200, Idempotent-Replayed), another body or workflow under the
// key is 409, 20 concurrent identical submits make one run, a key out of bounds is 422, a key
// expires after `idempotency_window`, and a submit without the header answers as before.
import type { ChildProcess } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../support/http-client.ts";
import { killAll, type Served, serve } from "../support/serve.ts";
import { FLOW_ROW, flowFolder } from "../support/serve-folders.ts";

let dir: string;
let served: Served;
const children: ChildProcess[] = [];

beforeAll(async () => {
  const rows = `${FLOW_ROW}[workflows.other]\ntarget = "other.ts:other"\n`;
  dir = flowFolder("ym-idem-", "idempotency_window = 2", rows);
  writeFileSync(
    join(dir, "other.ts"),
    `import { workflow } from "yardmaster";
export const other = workflow("other");
other.node({ start: true }, async function only() { return 2; });
`,
  );
  served = await serve({ dir, children });
}, 60_000);

afterAll(() => {
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});

const submit = (body: unknown, key?: string, workflow = "flow") =>
  request(
    served.url,
    "POST",
    `/api/workflows/${workflow}/runs`,
    body,
    key === undefined ? {} : { "idempotency-key": key },
  );

const runCount = async () => (await request(served.url, "GET", "/api/runs")).body.length;

describe("Idempotency-Key on submit", { timeout: 60_000 }, () => {
  it("answers a replay with the first run, status 200 and Idempotent-Replayed", async () => {
    const before = await runCount();
    const first = await submit({ title: "t", description: "d" }, "replay-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await submit({ description: "d", title: "t" }, "replay-1");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toStrictEqual(first.body);
    expect(Object.keys(again.body)).toStrictEqual(["run_id"]);
    expect(await runCount()).toBe(before + 1);
  });

  it("counts the run's input in the body: another input is 409, a null input is no input", async () => {
    const first = await submit({ title: "t", input: { n: 1 } }, "input-1");
    expect(first.status).toBe(201);
    const detail = await request(served.url, "GET", `/api/runs/${first.body.run_id}`);
    expect(detail.body.input).toStrictEqual({ n: 1 });
    expect((await submit({ title: "t", input: { n: 1 } }, "input-1")).status).toBe(200);
    const other = await submit({ title: "t", input: { n: 2 } }, "input-1");
    expect(other.status).toBe(409);
    expect(other.body.run_id).toBe(first.body.run_id);
    const bare = await submit({ title: "u" }, "input-2");
    expect(bare.status).toBe(201);
    const nullInput = await submit({ title: "u", input: null }, "input-2");
    expect(nullInput.status).toBe(200);
    expect(nullInput.body.run_id).toBe(bare.body.run_id);
  });

  it("refuses the key with another body or another workflow: 409 conflict", async () => {
    const first = await submit({ title: "t" }, "mismatch-1");
    expect(first.status).toBe(201);
    const body = await submit({ title: "t2" }, "mismatch-1");
    expect(body.status).toBe(409);
    expect(body.body).toStrictEqual({
      error: expect.stringContaining("different request body"),
      code: "conflict",
      run_id: first.body.run_id,
    });
    const workflow = await submit({ title: "t" }, "mismatch-1", "other");
    expect(workflow.status).toBe(409);
    expect(workflow.body.error).toContain("workflow flow");
    // An explicit default is the same request.
    const same = await submit({ title: "t", description: "" }, "mismatch-1");
    expect(same.status).toBe(200);
  });

  it("makes one run of 20 concurrent identical submits", async () => {
    const before = await runCount();
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => submit({ title: "race" }, "race-1")),
    );
    expect(new Set(replies.map((r) => r.body.run_id)).size).toBe(1);
    expect(replies.map((r) => r.status).sort()).toStrictEqual([...Array(19).fill(200), 201]);
    expect(await runCount()).toBe(before + 1);
  });

  it("refuses a key out of bounds with 422 validation, and creates nothing", async () => {
    const before = await runCount();
    for (const key of ["", "x".repeat(256), "tab\there", "caf\u00e9"]) {
      const reply = await fetch(`${served.url}/api/workflows/flow/runs`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          // fetch refuses a header value that is not Latin-1; é is Latin-1.
          "idempotency-key": key,
        },
        body: JSON.stringify({ title: "t" }),
      });
      // An empty value reaches the server as an empty header.
      expect(reply.status, JSON.stringify(key)).toBe(422);
      const body = await reply.json();
      expect(body).toMatchObject({
        code: "validation",
        errors: [
          {
            loc: ["header", "idempotency-key"],
            msg: "expected 1 to 255 printable ASCII characters",
          },
        ],
      });
    }
    const longest = await submit({ title: "t" }, "k".repeat(255));
    expect(longest.status).toBe(201);
    expect(await runCount()).toBe(before + 1);
  });

  it("answers a submit without the header as before: 201, a new run each time", async () => {
    const a = await submit({ title: "plain" });
    const b = await submit({ title: "plain" });
    expect([a.status, b.status]).toStrictEqual([201, 201]);
    expect(a.body.run_id).not.toBe(b.body.run_id);
    expect(a.headers.get("idempotent-replayed")).toBeNull();
  });

  it("forgets a key after idempotency_window (2 s here)", async () => {
    const first = await submit({ title: "t" }, "window-1");
    await new Promise((r) => setTimeout(r, 2_200));
    const later = await submit({ title: "another" }, "window-1");
    expect(later.status).toBe(201);
    expect(later.body.run_id).not.toBe(first.body.run_id);
  });

  it("forgets a key with its deleted run", async () => {
    const first = await submit({ title: "t" }, "deleted-1");
    const runId = first.body.run_id;
    // Deleting a run stops what it has going, so it need not have ended.
    expect((await request(served.url, "DELETE", `/api/runs/${runId}`)).status).toBeLessThan(300);
    const again = await submit({ title: "t" }, "deleted-1");
    expect(again.status).toBe(201);
    expect(again.body.run_id).not.toBe(runId);
  });
});
