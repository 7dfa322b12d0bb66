// The client commands against a server that requires the operator token: YARDMASTER_TOKEN is
// sent as a bearer token (on plain requests and on the event stream), --token overrides it, and
// a missing or wrong token is a refusal (exit 1) naming 401 unauthorized.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rotateToken } from "../../src/http/auth.ts";
import { defaultToml, startTestServer, type TestServer } from "../support/server-harness.ts";
import { at, startCli } from "./client-kit.ts";

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer(
    defaultToml().replace("port = 0", "port = 0\nrequire_token = true"),
  );
  // The default token_file, relative to the configuration's folder; the server reads it afresh.
  token = await rotateToken(join(server.dir, ".yardmaster", "operator-token"));
});
afterAll(() => server.close());

describe("operator token", () => {
  it("is refused when missing or wrong, with exit 1 and the 401 code", async () => {
    const missing = await at(server.url)("runs");
    expect(missing.code).toBe(1);
    const [refusal, hint] = missing.err.split("\n");
    expect(refusal).toMatch(/^yardmaster runs: .+ \[401 unauthorized\]$/);
    expect(hint).toMatch(
      /^yardmaster runs: give the operator token with --token T or YARDMASTER_TOKEN;/,
    );
    expect(hint).toContain(".yardmaster/operator-token");
    const wrong = await at(server.url, { YARDMASTER_TOKEN: "not-it" })("workflows");
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain("[401 unauthorized]");
  });

  it("is read from YARDMASTER_TOKEN, for requests and for the event stream", async () => {
    const ym = at(server.url, { YARDMASTER_TOKEN: token });
    expect((await ym("runs")).code).toBe(0);
    const waited = await ym("submit", "chain", "--title", "authorised", "--wait");
    expect(waited.code).toBe(0);
    expect(waited.err).toContain("run.completed");
  });

  it("is taken from --token before YARDMASTER_TOKEN", async () => {
    const envWrong = at(server.url, { YARDMASTER_TOKEN: "stale" });
    expect((await envWrong("runs", "--token", token)).code).toBe(0);
    const envRight = at(server.url, { YARDMASTER_TOKEN: token });
    expect((await envRight("runs", "--token", "stale")).code).toBe(1);
  });

  it("makes tail exit 1 when the stream refuses the token", async () => {
    const env = { YARDMASTER_URL: server.url, YARDMASTER_TOKEN: "stale" };
    const t = startCli({ env }, "tail");
    expect(await t.done).toBe(1);
    expect(t.err[0]).toMatch(/^yardmaster tail: .+ \[401 unauthorized\]$/);
    expect(t.err[1]).toContain("YARDMASTER_TOKEN");
  });
});
