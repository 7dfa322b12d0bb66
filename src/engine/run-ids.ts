// Run ids: monotonic ULIDs. ulid's own random source asks the OS for one byte per character
// (crypto.getRandomValues on a fresh one-byte array): 16 calls, about 50 µs, for every id
// minted in a new millisecond, which was a fifth of a submit's server time. The same
// cryptographic bytes are drawn here from a pool refilled 4 KiB at a time.
import { randomFillSync } from "node:crypto";
import { monotonicFactory } from "ulid";

const pool = Buffer.alloc(4096);
let next = pool.length;

/** A fraction in [0, 1) from one pooled random byte: ulid maps it to one of 32 characters. */
function pooledRandom(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++] / 256;
}

/** The next run id (of now, or of `seedTime`): later than every id minted before it here. */
export const newRunId: (seedTime?: number) => string = monotonicFactory(pooledRandom);
