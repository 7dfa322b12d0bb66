// The work log, submissions and requests.
import { describe, expect, it } from "vitest";
import type { LogRecord } from "../../../src/engine/index.ts";
import { addRun, addTask, type Harness, requestInput } from "./fixtures.ts";

export function recordsContract(h: Harness): void {
  describe("log and submissions", () => {
    it("appends log entries and lists a run's entries by id", async () => {
      const run = await addRun(h.store);
      const other = await addRun(h.store);
      const task = await addTask(h.store, run.id);
      const entries: Array<Omit<LogRecord, "id">> = [
        {
          run_id: run.id,
          node: "start",
          task_id: task.id,
          author: "agent",
          kind: "deliverable",
          text: "# Report\n",
          created: 5,
          operator: null,
        },
        {
          run_id: other.id,
          node: "start",
          task_id: null,
          author: "user",
          kind: "note",
          text: "elsewhere",
          created: 6,
          operator: "ana",
        },
        {
          run_id: run.id,
          node: "review",
          task_id: null,
          author: "engine",
          kind: null,
          text: "",
          created: 7,
          operator: null,
        },
      ];
      const stored = await h.store.transact(async (tx) => {
        const out: LogRecord[] = [];
        for (const entry of entries) out.push(await tx.appendLog(entry));
        return out;
      });
      expect(stored).toStrictEqual(entries.map((entry, i) => ({ ...entry, id: stored[i].id })));
      expect(stored[1].id).toBeGreaterThan(stored[0].id);
      expect(await h.store.listLog(run.id)).toStrictEqual([stored[0], stored[2]]);
      expect(await h.store.listLog("none")).toEqual([]);
    });

    it("stores submissions per task", async () => {
      const run = await addRun(h.store);
      const a = await addTask(h.store, run.id);
      const b = await addTask(h.store, run.id);
      const [s1, s2, s3] = await h.store.transact(async (tx) => [
        await tx.insertSubmission({
          task_id: a.id,
          created: 1,
          payload: { answer: [1, { x: null }] },
        }),
        await tx.insertSubmission({ task_id: b.id, created: 2, payload: "text" }),
        await tx.insertSubmission({ task_id: a.id, created: 3, payload: null }),
      ]);
      expect(s1).toStrictEqual({
        id: s1.id,
        task_id: a.id,
        created: 1,
        payload: { answer: [1, { x: null }] },
        agent_call: null,
      });
      expect(await h.store.listSubmissions(a.id)).toStrictEqual([s1, s3]);
      expect(await h.store.listSubmissions(b.id)).toStrictEqual([s2]);
    });

    it("marks a submission as the result of an agent call of its attempt", async () => {
      const run = await addRun(h.store);
      const task = await addTask(h.store, run.id);
      const [first, second] = await h.store.transact(async (tx) => [
        await tx.insertSubmission({ task_id: task.id, created: 1, payload: { draft: 1 } }),
        await tx.insertSubmission({ task_id: task.id, created: 2, payload: { draft: 2 } }),
      ]);
      await h.store.transact((tx) => tx.markAgentResult(second.id, 1));
      expect(await h.store.listSubmissions(task.id)).toStrictEqual([
        first,
        { ...second, agent_call: 1 },
      ]);
    });
  });

  describe("requests", () => {
    it("round-trips every field and updates an answer", async () => {
      const run = await addRun(h.store);
      const task = await addTask(h.store, run.id);
      const input = requestInput(run.id, task.id, {
        kind: "permission",
        mode: "options",
        source: "agent",
        ordinal: null,
        options: [
          { option_id: "allow", name: "Allow", kind: "allow_once" },
          { option_id: "deny", name: "Deny", kind: null },
        ],
        schema: { type: "object", properties: { ok: { type: "boolean" } } },
        tool_call: { title: "rm -rf", args: ["-r", null] },
      });
      const request = await h.store.transact((tx) => tx.insertRequest(input));
      expect(request).toStrictEqual({ ...input, id: request.id });
      expect(await h.store.getRequest(request.id)).toStrictEqual(request);
      const patch = {
        answered_by: "user" as const,
        answer: { option_id: "allow" },
        answered: 99,
        operator: "ana",
      };
      const answered = await h.store.transact((tx) => tx.updateRequest(request.id, patch));
      expect(answered).toStrictEqual({ ...request, ...patch });
      expect(await h.store.getRequest(request.id)).toStrictEqual(answered);
      expect(await h.store.getRequest(request.id + 1000)).toBeNull();
      await expect(
        h.store.transact((tx) => tx.updateRequest(request.id + 1000, { stale: true })),
      ).rejects.toThrow();
    });

    it("marks an attempt's pending requests stale, of one source when given", async () => {
      const run = await addRun(h.store);
      const task = await addTask(h.store, run.id);
      const other = await addTask(h.store, run.id);
      const [agent, node, answered, elsewhere] = await h.store.transact(async (tx) => [
        await tx.insertRequest(requestInput(run.id, task.id, { source: "agent" })),
        await tx.insertRequest(requestInput(run.id, task.id, { source: "node" })),
        await tx.insertRequest(
          requestInput(run.id, task.id, { answered_by: "engine", answer: "no", answered: 3 }),
        ),
        await tx.insertRequest(requestInput(run.id, other.id)),
      ]);
      const staleIds = async () =>
        (await h.store.listRequests({ run_id: run.id })).filter((r) => r.stale).map((r) => r.id);
      await h.store.transact((tx) => tx.staleRequests(task.id, "agent"));
      expect(await staleIds()).toEqual([agent.id]);
      await h.store.transact((tx) => tx.staleRequests(task.id));
      expect(await staleIds()).toEqual([agent.id, node.id]);
      expect((await h.store.getRequest(answered.id))!.stale).toBe(false);
      expect((await h.store.getRequest(elsewhere.id))!.stale).toBe(false);
      // Seen by the unit's later reads, and taken back with it when it fails.
      await expect(
        h.store.transact(async (tx) => {
          await tx.staleRequests(other.id);
          expect(await tx.listRequests({ task_id: other.id, pending: true })).toEqual([]);
          throw new Error("refused");
        }),
      ).rejects.toThrow("refused");
      expect((await h.store.getRequest(elsewhere.id))!.stale).toBe(false);
      // A later unit still finds it pending, and stales it.
      await h.store.transact((tx) => tx.staleRequests(other.id));
      expect((await h.store.getRequest(elsewhere.id))!.stale).toBe(true);
      // A request made pending again by an update is staled with its task's.
      await h.store.transact((tx) => tx.updateRequest(node.id, { stale: false }));
      await h.store.transact((tx) => tx.staleRequests(task.id));
      expect((await h.store.getRequest(node.id))!.stale).toBe(true);
    });

    it("filters by run, task and pending", async () => {
      const a = await addRun(h.store);
      const b = await addRun(h.store);
      const ta = await addTask(h.store, a.id);
      const ta2 = await addTask(h.store, a.id);
      const tb = await addTask(h.store, b.id);
      const [open, answered, stale, other, second] = await h.store.transact(async (tx) => [
        await tx.insertRequest(requestInput(a.id, ta.id)),
        await tx.insertRequest(
          requestInput(a.id, ta.id, { answered_by: "engine", answer: "no", answered: 3 }),
        ),
        await tx.insertRequest(requestInput(a.id, ta.id, { stale: true })),
        await tx.insertRequest(requestInput(b.id, tb.id)),
        await tx.insertRequest(requestInput(a.id, ta2.id, { answer: null })),
      ]);
      const ids = async (filter?: object) => (await h.store.listRequests(filter)).map((r) => r.id);
      expect(await ids()).toEqual([open.id, answered.id, stale.id, other.id, second.id]);
      expect(await ids({ pending: false })).toEqual([
        open.id,
        answered.id,
        stale.id,
        other.id,
        second.id,
      ]);
      expect(await ids({ pending: true })).toEqual([open.id, other.id, second.id]);
      expect(await ids({ run_id: a.id })).toEqual([open.id, answered.id, stale.id, second.id]);
      expect(await ids({ run_id: a.id, pending: true })).toEqual([open.id, second.id]);
      expect(await ids({ task_id: ta.id })).toEqual([open.id, answered.id, stale.id]);
      expect(await ids({ task_id: ta.id, pending: true })).toEqual([open.id]);
      expect(await ids({ run_id: b.id, task_id: ta.id })).toEqual([]);
    });
  });
}
