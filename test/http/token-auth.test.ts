// Black-box conformance of operator authentication (http-api.md, Authentication) on a
// server with `require_token = true`, and of `yardmaster token rotate` against it.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkError } from "../support/api-shapes.ts";
import { rotateToken, type Served, serve, serverDir, stop } from "../support/serve.ts";
import { openStream } from "../support/sse.ts";
import { writeFlows } from "../support/suite-flows.ts";
import { testStoreUrl } from "../support/test-store.ts";
import { eventually } from "../support/wait.ts";

let srv: Served;
let token: string;
const dir = serverDir("bb-");
beforeAll(async () => {
  const toml = writeFlows(dir, "require_token = true");
  srv = await serve({ dir, toml, store: testStoreUrl(dir, "s.db") });
  token = await rotateToken(srv.config!);
}, 40_000);
afterAll(async () => {
  await stop(srv);
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const accepted = async (t: string) =>
  (await srv.call("GET", "/api/runs", undefined, bearer(t))).status === 200;

describe("operator token", () => {
  it("refuses operator endpoints without or with a wrong token, 401 unauthorized", async () => {
    await eventually(() => accepted(token), "the rotated token");
    checkError(await srv.call("GET", "/api/runs"), 401, "unauthorized");
    checkError(await srv.call("GET", "/api/runs", undefined, bearer("wrong")), 401, "unauthorized");
    checkError(
      await srv.call("POST", "/api/workflows/chain/runs", { title: "x" }),
      401,
      "unauthorized",
    );
    checkError(await srv.call("GET", "/api/workflows"), 401, "unauthorized");
    const made = await srv.call("POST", "/api/workflows/chain/runs", { title: "x" }, bearer(token));
    expect(made.status).toBe(201);
  });

  it("leaves health and me open; me reports auth token and whether the caller is authenticated", async () => {
    expect((await srv.call("GET", "/api/health")).status).toBe(200);
    const anon = await srv.call("GET", "/api/me");
    expect(anon.status).toBe(200);
    expect(anon.body).toMatchObject({ auth: "token", authenticated: false, features: [] });
    expect((await srv.call("GET", "/api/me", undefined, bearer(token))).body).toMatchObject({
      auth: "token",
      authenticated: true,
    });
    expect((await srv.call("GET", "/api/me", undefined, bearer("wrong"))).body.authenticated).toBe(
      false,
    );
  });

  it("accepts access_token on /api/events only", async () => {
    const open = await openStream(
      `${srv.url}/api/events?access_token=${encodeURIComponent(token)}`,
    );
    open.close();
    expect(open.status).toBe(200);
    const refused = await srv.call("GET", "/api/events");
    checkError(refused, 401, "unauthorized");
    checkError(await srv.call("GET", "/api/events?access_token=wrong"), 401, "unauthorized");
    const elsewhere = await srv.call("GET", `/api/runs?access_token=${encodeURIComponent(token)}`);
    checkError(elsewhere, 401, "unauthorized");
  });

  it("token rotate prints a new token that the running server accepts, refusing the old one", async () => {
    const fresh = await rotateToken(srv.config!);
    expect(fresh).not.toBe(token);
    await eventually(() => accepted(fresh), "the new token accepted");
    await eventually(async () => !(await accepted(token)), "the old token refused");
    checkError(await srv.call("GET", "/api/runs", undefined, bearer(token)), 401, "unauthorized");
    token = fresh;
  });
});
