// Black-box conformance of operator authentication (http-api.md, Authentication) on a
// server with `require_token = true`, and of `yardmaster token rotate` against it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFlows } from "../support/blackbox-flows.ts";
import {
  type BlackboxServer,
  makeDir,
  rotateToken,
  startServer,
  waitFor,
} from "../support/blackbox-server.ts";
import { checkError } from "../support/blackbox-shapes.ts";
import { openStream } from "../support/blackbox-sse.ts";

let srv: BlackboxServer;
let token: string;
beforeAll(async () => {
  const dir = makeDir();
  const toml = writeFlows(dir, "require_token = true");
  srv = await startServer(dir, toml);
  token = await rotateToken(srv.config);
}, 40_000);
afterAll(async () => {
  await srv?.stop();
}, 30_000);

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const accepted = async (t: string) =>
  (await srv.call("GET", "/api/runs", undefined, bearer(t))).status === 200;

describe("operator token", () => {
  it("refuses operator endpoints without or with a wrong token, 401 unauthorized", async () => {
    await waitFor("the rotated token", () => accepted(token));
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
    const fresh = await rotateToken(srv.config);
    expect(fresh).not.toBe(token);
    await waitFor("the new token accepted", () => accepted(fresh));
    await waitFor("the old token refused", async () => !(await accepted(token)));
    checkError(await srv.call("GET", "/api/runs", undefined, bearer(token)), 401, "unauthorized");
    token = fresh;
  });
});
