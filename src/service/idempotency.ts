// The hash a submit's `Idempotency-Key` is stored with: SHA-256 of the canonical JSON of the
// parsed body (object keys sorted at every depth, no whitespace), so the same request sent with
// its fields in another order, or with a default written out, hashes the same.
import { createHash } from "node:crypto";

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = canonical(v);
  }
  return out;
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value)) ?? "null";
}

export function bodyHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}
