// Operator authentication: loopback binds need nothing, other binds (or require_token) need the
// bearer token from the token file, re-read on rotation; /api/health and /api/me stay open;
// `access_token` works on /api/events only; credentials never reach the logs. Then the same
// over a `yardmaster serve` process with `require_token = true`, and `yardmaster token rotate`
// against it.

import { rmSync } from "node:fs";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthGate, ensureToken, isLoopbackHost, rotateToken } from "../../src/http/auth.ts";
import { createLogger } from "../../src/observability/logger.ts";
import { checkError } from "../support/api-shapes.ts";
import {
  rotateToken as rotateByCommand,
  type Served,
  serve,
  serverDir,
  stop,
} from "../support/serve.ts";
import { openStream, SseClient } from "../support/sse.ts";
import { writeFlows } from "../support/suite-flows.ts";
import { testStoreUrl } from "../support/test-store.ts";
import { eventually } from "../support/wait.ts";
import { RUN_ID, type Started, startApp } from "./fixtures.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ym-auth-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("which binds need a token", () => {
  it("treats 127.0.0.0/8, ::1 and localhost as loopback, by the configured host", () => {
    for (const host of [
      "127.0.0.1",
      "127.1.2.3",
      "::1",
      "[::1]",
      "localhost",
      "::ffff:127.0.0.1",
    ]) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of [
      "0.0.0.0",
      "::",
      "192.168.1.4",
      "10.0.0.1",
      "example.com",
      "::ffff:10.0.0.1",
    ]) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });

  it("is off on loopback unless require_token, token mode otherwise", () => {
    const tokenFile = join(dir, "none");
    expect(createAuthGate({ host: "127.0.0.1", requireToken: false, tokenFile }).mode).toBe("off");
    expect(createAuthGate({ host: "127.0.0.1", requireToken: true, tokenFile }).mode).toBe("token");
    expect(createAuthGate({ host: "0.0.0.0", requireToken: false, tokenFile }).mode).toBe("token");
  });

  it("refuses every token while the token file is missing or empty", async () => {
    const tokenFile = join(dir, "empty");
    const gate = createAuthGate({ host: "0.0.0.0", requireToken: false, tokenFile });
    expect(gate.check("anything")).toBe(false);
    await writeFile(tokenFile, "\n");
    expect(gate.check("")).toBe(false);
    expect(gate.check(undefined)).toBe(false);
  });
});

describe("token mode", () => {
  let s: Started;
  let tokenFile: string;
  let token: string;
  const logs: string[] = [];

  beforeAll(async () => {
    tokenFile = join(dir, "sub", "operator-token");
    token = await rotateToken(tokenFile);
    const stream = new Writable({
      write(chunk, _enc, done) {
        logs.push(String(chunk));
        done();
      },
    });
    s = await startApp({
      auth: createAuthGate({ host: "0.0.0.0", requireToken: false, tokenFile }),
      logger: createLogger({ level: "trace", format: "json", destination: stream }),
    });
  });
  afterAll(async () => {
    await s.app.close();
  });

  const get = (path: string, bearer?: string) =>
    fetch(s.base + path, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

  it("answers 401 unauthorized without a token or with a wrong one", async () => {
    for (const bearer of [undefined, "wrong", `${token}x`]) {
      const res = await get("/api/runs", bearer);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      expect(await res.json()).toMatchObject({ code: "unauthorized" });
    }
  });

  it("answers 200 with the right token", async () => {
    expect((await get("/api/runs", token)).status).toBe(200);
    expect((await get(`/api/runs/${RUN_ID}`, token)).status).toBe(200);
  });

  it("checks the token before the body, so an unauthenticated caller learns nothing", async () => {
    const res = await fetch(`${s.base}/api/workflows/triage/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(401);
  });

  it("leaves /api/health, /api/me and the documentation open", async () => {
    for (const path of ["/api/health", "/openapi.json", "/docs/", "/redoc"]) {
      expect((await get(path)).status).toBe(200);
    }
    const anonymous = await (await get("/api/me")).json();
    expect(anonymous).toMatchObject({ auth: "token", authenticated: false, features: [] });
    expect(((await (await get("/api/me", "wrong")).json()) as any).authenticated).toBe(false);
    expect(((await (await get("/api/me", token)).json()) as any).authenticated).toBe(true);
  });

  it("accepts access_token on /api/events only", async () => {
    const refused = await get(`/api/runs?access_token=${token}`);
    expect(refused.status).toBe(401);
    expect(
      ((await get(`/api/me?access_token=${token}`).then((r) => r.json())) as any).authenticated,
    ).toBe(false);
    const stream = new SseClient(`${s.base}/api/events?access_token=${token}`);
    expect((await stream.response()).statusCode).toBe(200);
    stream.close();
    const wrong = new SseClient(`${s.base}/api/events?access_token=nope`);
    expect((await wrong.response()).statusCode).toBe(401);
    wrong.close();
  });

  it("takes a rotated token at once and refuses the old one, without restart", async () => {
    const old = token;
    token = await rotateToken(tokenFile);
    expect(token).not.toBe(old);
    expect((await get("/api/runs", old)).status).toBe(401);
    expect((await get("/api/runs", token)).status).toBe(200);
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
  });

  it("never writes a credential to the log", async () => {
    await get(`/api/runs/${RUN_ID}`, token);
    const stream = new SseClient(`${s.base}/api/events?access_token=${token}&run=r1`);
    await stream.response();
    stream.close();
    const text = logs.join("");
    expect(text).toContain("/api/events");
    expect(text).toContain(`/api/runs/${RUN_ID}`);
    expect(text).not.toContain(token);
    expect(text).not.toContain("access_token");
    expect(text.toLowerCase()).not.toContain("bearer");
  });
});

describe("off mode", () => {
  let s: Started;
  beforeAll(async () => {
    s = await startApp();
  });
  afterAll(async () => {
    await s.app.close();
  });

  it("reports auth off and authenticated on /api/me", async () => {
    const me = await (await fetch(`${s.base}/api/me`)).json();
    expect(me).toEqual({
      auth: "off",
      authenticated: true,
      version: "0.1.0",
      started_at: "2024-05-01T12:00:00.000Z",
      features: [],
    });
  });

  it("refuses a state-changing request from another site's page", async () => {
    const post = (origin: string) =>
      fetch(`${s.base}/api/runs/${RUN_ID}/cancel`, { method: "POST", headers: { origin } });
    const cross = await post("http://evil.example");
    expect(cross.status).toBe(403);
    expect(((await cross.json()) as any).code).toBe("forbidden");
    expect((await post(s.base)).status).toBe(200);
    const proxied = await fetch(`${s.base}/api/runs/${RUN_ID}/cancel`, {
      method: "POST",
      headers: { origin: "http://127.0.0.1:9999", "x-forwarded-host": "127.0.0.1:9999" },
    });
    expect(proxied.status).toBe(200);
  });

  it("answers only to a loopback host name, against DNS rebinding", async () => {
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(`${s.base}/api/runs`, { headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
      });
    expect(await status("evil.example:8420")).toBe(403);
    for (const host of ["127.0.0.1:8420", "localhost", "[::1]:8420"]) {
      expect(await status(host)).toBe(200);
    }
  });
});

describe("ensureToken", () => {
  it("creates a token once and then keeps it", async () => {
    const tokenFile = join(dir, "ensure", "token");
    const first = await ensureToken(tokenFile);
    expect(first.created).toBe(true);
    const again = await ensureToken(tokenFile);
    expect(again).toEqual({ token: first.token, created: false });
  });
});

describe("over a `yardmaster serve` process with require_token", () => {
  let srv: Served;
  let token: string;
  const dir = serverDir("bb-");
  beforeAll(async () => {
    const toml = writeFlows(dir, "require_token = true");
    srv = await serve({ dir, toml, store: testStoreUrl(dir, "s.db") });
    token = await rotateByCommand(srv.config!);
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
      checkError(
        await srv.call("GET", "/api/runs", undefined, bearer("wrong")),
        401,
        "unauthorized",
      );
      checkError(
        await srv.call("POST", "/api/workflows/chain/runs", { title: "x" }),
        401,
        "unauthorized",
      );
      checkError(await srv.call("GET", "/api/workflows"), 401, "unauthorized");
      const made = await srv.call(
        "POST",
        "/api/workflows/chain/runs",
        { title: "x" },
        bearer(token),
      );
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
      expect(
        (await srv.call("GET", "/api/me", undefined, bearer("wrong"))).body.authenticated,
      ).toBe(false);
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
      const elsewhere = await srv.call(
        "GET",
        `/api/runs?access_token=${encodeURIComponent(token)}`,
      );
      checkError(elsewhere, 401, "unauthorized");
    });

    it("token rotate prints a new token that the running server accepts, refusing the old one", async () => {
      const fresh = await rotateByCommand(srv.config!);
      expect(fresh).not.toBe(token);
      await eventually(() => accepted(fresh), "the new token accepted");
      await eventually(async () => !(await accepted(token)), "the old token refused");
      checkError(await srv.call("GET", "/api/runs", undefined, bearer(token)), 401, "unauthorized");
      token = fresh;
    });
  });
});
