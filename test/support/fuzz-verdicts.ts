// What the OpenAPI fuzz test holds every answer to: no 5xx; every refusal is JSON
// `{error, code, ...}` with a code of the closed vocabulary of docs/errors.md at the status that
// page gives it; a `validation` refusal lists `errors` of `{loc, msg, type}`. Plus the health
// probe the test runs between and during cases.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "./fuzz-send.ts";

/**
 * Code -> the statuses it is sent with, read from docs/errors.md (the page clients are pointed
 * to): its own from the table of codes, then those of "Statuses set by the protocol".
 */
export function errorCatalogue(): Map<string, number[]> {
  const page = readFileSync(join(import.meta.dirname, "..", "..", "docs", "errors.md"), "utf8");
  const own = page.matchAll(/^\|\s*`([a-z_]+)`\s*\|\s*(\d{3})\s*\|/gm);
  const catalogue = new Map([...own].map((m) => [m[1], [Number(m[2])]]));
  for (const m of page.matchAll(/^\|\s*(\d{3})\s*\|\s*`([a-z_]+)`\s*\|/gm)) {
    catalogue.get(m[2])?.push(Number(m[1]));
  }
  return catalogue;
}

const isLoc = (loc: unknown) =>
  Array.isArray(loc) && loc.every((p) => typeof p === "string" || typeof p === "number");

function validationProblem(body: Record<string, unknown>): string | undefined {
  const errors = body.errors;
  if (!Array.isArray(errors) || errors.length === 0) return "validation refusal without errors";
  const bad = errors.find(
    (e) => !isLoc(e?.loc) || typeof e?.msg !== "string" || typeof e?.type !== "string",
  );
  return bad ? `errors entry is not {loc, msg, type}: ${JSON.stringify(bad)}` : undefined;
}

/** Why `reply` breaks the contract, or undefined when it keeps it. */
export function problemWith(reply: Reply, catalogue: Map<string, number[]>): string | undefined {
  if (reply.kind === "failed") return `no HTTP answer (${reply.error})`;
  if (reply.kind === "unanswered") return `no answer within ${reply.ms} ms`;
  const { status } = reply;
  if (status >= 500) return `status ${status}`;
  if (status < 400) return undefined;
  if (reply.kind === "streaming") return `status ${status} as an event stream`;
  const type = reply.headers.get("content-type") ?? "";
  if (!type.startsWith("application/json")) return `status ${status} with content-type "${type}"`;
  let body: unknown;
  try {
    body = JSON.parse(reply.text);
  } catch {
    return `status ${status} with a body that is not JSON`;
  }
  if (body === null || typeof body !== "object" || Array.isArray(body))
    return `status ${status} with a body that is not an object`;
  const { error, code } = body as Record<string, unknown>;
  if (typeof error !== "string") return `status ${status} without a string "error"`;
  if (typeof code !== "string" || !catalogue.has(code))
    return `status ${status} with code ${JSON.stringify(code)} outside the vocabulary`;
  const documented = catalogue.get(code) ?? [];
  if (!documented.includes(status))
    return `status ${status} for code "${code}" (documented ${documented.join(", ")})`;
  if (code === "validation") return validationProblem(body as Record<string, unknown>);
  if (status === 401 && !reply.headers.get("www-authenticate"))
    return "401 without WWW-Authenticate";
  return undefined;
}

/** True when /api/health answers 200 `{ok: true}` within `ms`. */
async function probeHealth(base: string, ms: number): Promise<boolean> {
  try {
    const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(ms) });
    return res.status === 200 && ((await res.json()) as { ok?: unknown }).ok === true;
  } catch {
    return false;
  }
}

/**
 * True when /api/health answers within `ms`, asked at most twice in a row: the second probe rides
 * out a stall of the shared 2-core machine; a server that is itself stuck misses both.
 */
export async function healthAnswers(base: string, ms: number): Promise<boolean> {
  return (await probeHealth(base, ms)) || probeHealth(base, ms);
}

export interface HealthPoller {
  /** One line per stretch of unanswered probes, naming what the fuzzer was sending then. */
  misses: string[];
  stop(): Promise<void>;
}

/** Probes /api/health over and over while the cases run, each probe bounded by `ms`. */
export function pollHealth(base: string, ms: number, sending: () => string): HealthPoller {
  const misses: string[] = [];
  const started = Date.now();
  let running = true;
  let stretch: { from: number; sending: string } | undefined;
  const close = () => {
    if (!stretch) return;
    const span = `${stretch.from} ms to ${Date.now() - started} ms into the fuzz`;
    misses.push(
      `/api/health went unanswered for ${ms} ms, from ${span}, while sending:\n${stretch.sending}`,
    );
    stretch = undefined;
  };
  const loop = (async () => {
    while (running) {
      const at = Date.now() - started;
      if (await healthAnswers(base, ms)) close();
      else stretch ??= { from: at, sending: sending() };
      await new Promise((r) => setTimeout(r, 200));
    }
    close();
  })();
  return {
    misses,
    async stop() {
      running = false;
      await loop;
    },
  };
}
