// The one polling wait of the suite: asks `probe` again until it answers something truthy, and
// fails after a bound with what it was waiting for. Tests wait on state (a run's status, a file,
// a frame), never on time, so a slow shared machine only makes them slower, not flaky.

/**
 * Polls `probe` every `intervalMs` until it answers a truthy value and answers it; fails after
 * `ms` with `what`. In-process engine tests poll faster (no HTTP round trip per probe).
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  what: string,
  ms = 10_000,
  intervalMs = 20,
): Promise<NonNullable<T>> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() - started > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
