// The installed version of each peer's package (bench/peers/node_modules), or null when it is
// not installed (`npm run bench:peers:install`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Peer } from "./protocol.ts";

const PACKAGES: Record<Peer, string> = {
  dbos: "@dbos-inc/dbos-sdk",
  graphile: "graphile-worker",
  pgboss: "pg-boss",
  bullmq: "bullmq",
};

export function peerVersions(): Record<Peer, string | null> {
  const out = {} as Record<Peer, string | null>;
  for (const [peer, name] of Object.entries(PACKAGES) as Array<[Peer, string]>) {
    try {
      const file = join(import.meta.dirname, "node_modules", name, "package.json");
      out[peer] = JSON.parse(readFileSync(file, "utf8")).version ?? null;
    } catch {
      out[peer] = null;
    }
  }
  return out;
}
