// `yardmaster runs` finding runs against a real server: --sort, --since/--until (ISO, a date or
// a span back from now), --search by id prefix, and a clear usage error (exit 2) for each bad
// value. Also the instant parser itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseInstant } from "../../src/cli/format/instant.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { at } from "./client-kit.ts";

let server: TestServer;
let ym: ReturnType<typeof at>;
const ids: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  ym = at(server.url);
  for (const title of ["find one", "find two", "find three"]) {
    const res = await server.call("POST", "/api/workflows/asker/runs", { title });
    ids.push(res.body.run_id);
  }
}, 30_000);
afterAll(() => server.close());

const listed = (out: string) => ids.filter((id) => out.includes(id));

describe("yardmaster runs: find", () => {
  it("--sort created lists newest first, as the API does", async () => {
    const api = (await server.call("GET", "/api/runs?sort=created")).body as Array<{ id: string }>;
    const result = await ym("runs", "--sort", "created", "--json");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out).map((r: { id: string }) => r.id)).toEqual(api.map((r) => r.id));
    const table = await ym("runs", "--sort", "created");
    const order = ids.map((id) => table.out.indexOf(id));
    expect(order[2]).toBeLessThan(order[1]!);
    expect(order[1]).toBeLessThan(order[0]!);
  });

  it("--since and --until take an ISO instant, a date or a span back from now", async () => {
    expect(listed((await ym("runs", "--since", "1h")).out)).toEqual(ids);
    expect((await ym("runs", "--until", "1h")).out).toBe("No runs.");
    expect((await ym("runs", "--since", "2999-01-01T00:00:00Z")).out).toBe("No runs.");
    expect(listed((await ym("runs", "--since", "2020-01-01")).out)).toEqual(ids);
    expect(listed((await ym("runs", "--until", "2999-01-01T00:00:00+02:00")).out)).toEqual(ids);
  });

  it("--search matches an id's prefix as well as a title; pages keep the filters", async () => {
    const result = await ym("runs", "--search", ids[1]!.slice(0, 24));
    expect(listed(result.out)).toContain(ids[1]);
    const paged = await ym("runs", "--search", "find", "--sort", "updated", "--limit", "2");
    const more = paged.lines.at(-1)!;
    expect(more).toMatch(
      /^More: yardmaster runs --search find --sort updated --limit 2 --cursor \S+$/,
    );
    const rest = await ym(...more.slice("More: yardmaster ".length).split(" "));
    expect(rest.code).toBe(0);
    expect(listed(paged.out + rest.out).sort()).toEqual([...ids].sort());
    // A span is repeated as the instant it named, so every page asks for one range.
    const spanned = await ym("runs", "--since", "1h", "--limit", "2");
    const next = spanned.lines.at(-1)!;
    expect(next).toMatch(
      /^More: yardmaster runs --since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z --limit 2 --cursor \S+$/,
    );
    const after = await ym(...next.slice("More: yardmaster ".length).split(" "));
    expect(listed(spanned.out + after.out).sort()).toEqual([...ids].sort());
  });

  it("refuses each bad value with a usage error that says what is accepted", async () => {
    const cases: Array<[string[], string]> = [
      [["--limit", "0"], 'option --limit expects a number of runs from 1 to 1000, got "0"'],
      [["--limit", "1001"], 'option --limit expects a number of runs from 1 to 1000, got "1001"'],
      [["--limit", "ten"], 'option --limit expects a number of runs from 1 to 1000, got "ten"'],
      [
        ["--sort", "oldest"],
        'option --sort expects one of position, created, updated, got "oldest"',
      ],
      [["--since", "yesterday"], "option --since expects an ISO-8601 date-time with an offset"],
      [["--until", "2026-02-30"], "option --until expects an ISO-8601 date-time with an offset"],
      [["--since", "2026-11-01T09:00:00"], 'got "2026-11-01T09:00:00"'],
      [["--since", "3y"], 'a span back from now (30m, 2h, 3d, 1w), got "3y"'],
    ];
    for (const [args, text] of cases) {
      const result = await ym("runs", ...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.out).toBe("");
      expect(result.err, args.join(" ")).toContain(text);
    }
  });
});

describe("parseInstant", () => {
  const now = Date.parse("2026-11-27T12:00:00Z");
  it("reads spans, dates and ISO instants with an offset", () => {
    expect(parseInstant("90s", now)).toBe("2026-11-27T11:58:30.000Z");
    expect(parseInstant("2h", now)).toBe("2026-11-27T10:00:00.000Z");
    expect(parseInstant("3d", now)).toBe("2026-11-24T12:00:00.000Z");
    expect(parseInstant("1w", now)).toBe("2026-11-20T12:00:00.000Z");
    expect(parseInstant("2026-11-01", now)).toBe("2026-11-01T00:00:00.000Z");
    expect(parseInstant("2026-11-01T10:00:00+01:00", now)).toBe("2026-11-01T09:00:00.000Z");
    expect(parseInstant("2026-11-01T00:30:00-01:00", now)).toBe("2026-11-01T01:30:00.000Z");
  });
  it("refuses the rest", () => {
    for (const bad of ["", "now", "2h ago", "-2h", "2026-11-01T09:00", "2026-02-30", "1.5h"]) {
      expect(parseInstant(bad, now), bad).toBeNull();
    }
  });
});
