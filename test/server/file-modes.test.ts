// Under the usual umask 022 a file is created readable by everyone. The store holds every
// run's payloads and results, and its folder the operator token: `yardmaster serve` creates
// the folder 0700 and the store, its WAL and shared-memory files, its lock and the token 0600.
// A persisted registration keeps the configuration file's own mode.
import type { ChildProcess } from "node:child_process";
import { chmodSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { call, post } from "../support/http-client.ts";
import { killAll, type Served, serve, stop } from "../support/serve.ts";
import { flowFolder } from "../support/serve-folders.ts";

let dir: string;
const children: ChildProcess[] = [];
afterEach(() => {
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

it("creates the store, its companions and the token private to the user", {
  timeout: 30_000,
}, async () => {
  dir = flowFolder("ym-modes-", "require_token = true");
  chmodSync(join(dir, "yardmaster.toml"), 0o640);
  const umask = process.umask(0o022);
  let served: Served;
  try {
    served = await serve({ dir, children });
  } finally {
    process.umask(umask);
  }
  const token = readFileSync(join(dir, ".yardmaster", "operator-token"), "utf8").trim();
  const auth = { authorization: `Bearer ${token}` };
  const registered = await call(
    served.url,
    "/api/workflows",
    post({ target: "flow.ts:flow", persist: true }, auth),
  );
  expect(registered.status).toBe(201);
  const store = join(dir, ".yardmaster", "store.db");
  expect({
    folder: modeOf(join(dir, ".yardmaster")),
    store: modeOf(store),
    wal: modeOf(`${store}-wal`),
    shm: modeOf(`${store}-shm`),
    lock: modeOf(`${store}.lock`),
    token: modeOf(join(dir, ".yardmaster", "operator-token")),
    config: modeOf(join(dir, "yardmaster.toml")),
  }).toEqual({
    folder: 0o700,
    store: 0o600,
    wal: 0o600,
    shm: 0o600,
    lock: 0o600,
    token: 0o600,
    config: 0o640,
  });
  await stop(served);
});
