import { isGraphError, isNonRetryable } from "./errors.ts";

/**
 * The failure policy: GraphError and NonRetryable dead-letter at once; anything else (a
 * NodeTimeout included) may be retried. Brands, not `instanceof`, so errors thrown by a
 * workflow's own copy of the module are recognised.
 */
export function classifyFailure(err: unknown): { retryable: boolean; error: string } {
  return { retryable: !(isGraphError(err) || isNonRetryable(err)), error: describeError(err) };
}

/** Longest stack kept with an attempt; a longer one keeps its start (where it threw). */
const MAX_STACK = 16_384;
const TSX_NAMESPACE = /\?tsx-namespace=[\w-]+/g;

/** The stack of a thrown error (where the body threw), or null for a value without one. */
export function errorStack(err: unknown): string | null {
  if (!(err instanceof Error || looksLikeError(err))) return null;
  const stack = (err as Error).stack;
  if (typeof stack !== "string" || stack === "") return null;
  // The loader's module namespaces (`file.ts?tsx-namespace=...`) say nothing to a reader.
  const plain = stack.replace(TSX_NAMESPACE, "");
  return plain.length > MAX_STACK ? `${plain.slice(0, MAX_STACK)}\n    ...` : plain;
}

/** A one-line message such as `NonRetryable: empty ticket` or `Error: boom`. */
export function describeError(err: unknown): string {
  return oneLine(rawDescription(err));
}

function rawDescription(err: unknown): string {
  if (err instanceof Error || looksLikeError(err)) {
    const e = err as Error;
    const name = errorName(e);
    return e.message ? `${name}: ${e.message}` : name;
  }
  if (typeof err === "string") return err;
  try {
    const text = JSON.stringify(err);
    if (text !== undefined) return `thrown value: ${text}`;
  } catch {
    // A cycle or a BigInt inside: fall back to String() below.
  }
  return `thrown value: ${String(err)}`;
}

/** Errors from another realm (a worker, a vm context) fail `instanceof Error`. */
function looksLikeError(err: unknown): boolean {
  return (
    typeof err === "object" &&
    err !== null &&
    typeof (err as Error).message === "string" &&
    typeof (err as Error).name === "string"
  );
}

/** `class Fatal extends Error {}` leaves name "Error"; its class name says more. */
function errorName(e: Error): string {
  const ctor = (e as { constructor?: { name?: unknown } }).constructor?.name;
  if (e.name === "Error" && typeof ctor === "string" && ctor && ctor !== "Error") return ctor;
  return e.name || "Error";
}

function oneLine(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join(" ");
}
