// The pieces under the commands that have rules of their own: the hand-written SSE parser, the
// table layout, relative times, event lines, refusal lines and the colour switch.
import { describe, expect, it } from "vitest";
import { ApiRefusal, refusalLine } from "../../src/cli/client/client-errors.ts";
import { colourWanted } from "../../src/cli/client/client-io.ts";
import { SseParser } from "../../src/cli/client/sse-parser.ts";
import { eventLine } from "../../src/cli/format/event-line.ts";
import { createStyle } from "../../src/cli/format/style.ts";
import { renderTable } from "../../src/cli/format/table.ts";
import { relativeTime } from "../../src/cli/format/time.ts";

describe("SseParser", () => {
  it("assembles messages split anywhere across chunks, with CRLF or LF line ends", () => {
    const text =
      'id: 7\r\nevent: run.created\r\ndata: {"a":1}\r\n\r\n: ping\n\nevent: resync\ndata: {}\n\n';
    const whole = new SseParser().push(text);
    expect(whole).toEqual([
      { id: "7", event: "run.created", data: '{"a":1}' },
      { event: "resync", data: "{}" },
    ]);
    for (let cut = 1; cut < text.length; cut++) {
      const parser = new SseParser();
      const messages = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      expect(messages).toEqual(whole);
    }
  });

  it("joins data lines, defaults the event name and skips messages without data", () => {
    const parser = new SseParser();
    expect(parser.push("data: one\ndata:two\n\nevent: empty\n\n")).toEqual([
      { event: "message", data: "one\ntwo" },
    ]);
    expect(parser.push("data: half")).toEqual([]);
    expect(parser.push("\n\n")).toEqual([{ event: "message", data: "half" }]);
  });
});

describe("formatting", () => {
  it("aligns columns, right-aligns numbers, and keeps cells on one line", () => {
    const lines = renderTable(
      [{ header: "ID", align: "right" }, { header: "NAME" }, { header: "NOTE" }],
      [
        ["7", "first", "a\nb"],
        ["1234", "x", ""],
      ],
    );
    expect(lines).toEqual(["  ID  NAME   NOTE", "   7  first  a b", "1234  x"]);
  });

  it("says how long ago, in the largest whole unit", () => {
    const now = Date.parse("2026-01-02T00:00:00Z");
    expect(relativeTime("2026-01-01T23:59:59.500Z", now)).toBe("just now");
    expect(relativeTime("2026-01-01T23:59:18Z", now)).toBe("42s ago");
    expect(relativeTime("2026-01-01T21:00:00Z", now)).toBe("3h ago");
    expect(relativeTime("2025-12-30T00:00:00Z", now)).toBe("3d ago");
    expect(relativeTime(null, now)).toBe("-");
  });

  it("writes an event as time, name, short run id, task and its data with node first", () => {
    const line = eventLine(
      {
        id: 3,
        name: "task.failed",
        created: "2026-01-02T10:11:12Z",
        run_id: "01ARZ3NDEKTSV4RRFFQ69G5FAV",
        task_id: 12,
        data: { attempt: 1, error: "it broke", node: "first", retry_task_id: null },
      },
      createStyle(false),
    );
    expect(line).toMatch(
      /^\d\d:\d\d:\d\d {2}task\.failed {12}Q69G5FAV {2}#12 {5}node=first attempt=1 error="it broke"$/,
    );
  });

  it("puts the server's sentence, field issues, status and code on one refusal line", () => {
    const refusal = new ApiRefusal(422, {
      error: "Request validation failed.",
      code: "validation",
      errors: [{ loc: ["body", "title"], msg: "Too small", type: "too_small" }],
    });
    expect(refusalLine(refusal)).toBe(
      "Request validation failed. (body.title: Too small) [422 validation]",
    );
  });

  it("wants colour only on a terminal with NO_COLOR unset or empty", () => {
    const io = (tty: boolean, env: Record<string, string>) => ({
      cwd: "/",
      out() {},
      err() {},
      env,
      stdoutIsTty: tty,
    });
    expect(colourWanted(io(true, {}))).toBe(true);
    expect(colourWanted(io(true, { NO_COLOR: "" }))).toBe(true);
    expect(colourWanted(io(true, { NO_COLOR: "1" }))).toBe(false);
    expect(colourWanted(io(false, {}))).toBe(false);
  });
});

describe("connection settings", () => {
  it("refuses a server URL that cannot work with exit 2, before sending anything", async () => {
    const { cli } = await import("./client-kit.ts");
    const ftp = await cli({ env: { YARDMASTER_URL: "ftp://example.org" } }, "runs");
    expect(ftp.code).toBe(2);
    expect(ftp.err).toContain("must start with http:// or https://");
    const junk = await cli({}, "runs", "--url", "not a url");
    expect(junk.code).toBe(2);
  });
});
