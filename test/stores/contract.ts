// The shared contract every `Store` implementation must pass. Each implementation's test file
// calls `storeContract(name, open)`; `open` must answer a fresh, empty store for every test.
// The parts live in test/store-contract/ so each stays readable.
import { afterEach, beforeEach, describe } from "vitest";
import type { Store } from "../src/engine/store.ts";
import { claimsContract } from "./store-contract/claims.ts";
import { mixedClaimsContract } from "./store-contract/claims-mixed.ts";
import { countsContract } from "./store-contract/counts.ts";
import type { ContractOptions, Harness } from "./store-contract/fixtures.ts";
import { joinsContract } from "./store-contract/joins-and-registrations.ts";
import { lifecycleContract } from "./store-contract/lifecycle.ts";
import { recordsContract } from "./store-contract/records.ts";
import { runsContract } from "./store-contract/runs.ts";
import { streamsContract } from "./store-contract/streams.ts";
import { tasksContract } from "./store-contract/tasks.ts";
import { transactContract } from "./store-contract/transact.ts";

export type { ContractOptions } from "./store-contract/fixtures.ts";

export function storeContract(
  name: string,
  open: () => Promise<Store>,
  options: ContractOptions = {},
): void {
  describe(`store contract: ${name}`, () => {
    let current: Store | undefined;
    const harness: Harness = {
      get store(): Store {
        if (current === undefined) throw new Error("store contract: no store is open");
        return current;
      },
      options,
    };

    beforeEach(async () => {
      current = await open();
    });
    afterEach(async () => {
      await current?.close();
      current = undefined;
    });

    runsContract(harness);
    tasksContract(harness);
    claimsContract(harness);
    mixedClaimsContract(harness);
    transactContract(harness);
    recordsContract(harness);
    joinsContract(harness);
    streamsContract(harness);
    lifecycleContract(harness);
    countsContract(harness);
  });
}
