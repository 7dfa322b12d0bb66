// The one way the configuration tests read a refused load.
import { expect } from "vitest";
import { ConfigError } from "../../src/config/index.ts";

/** The ConfigError message a load fails with (the test fails if it loads). */
export async function configFailure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).message;
}
