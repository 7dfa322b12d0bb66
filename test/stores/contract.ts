// The shared contract every `Store` implementation must pass. Each implementation's test file
// calls `storeContract(name, open)`; `open` must answer a fresh, empty store for every test.
// The parts live in test/stores/contract/ so each stays readable.
import { afterEach, beforeEach, describe } from "vitest";
import type { Store } from "../../src/engine/index.ts";
import { bulkContract } from "./contract/bulk.ts";
import { claimsContract } from "./contract/claims.ts";
import { mixedClaimsContract } from "./contract/claims-mixed.ts";
import { countsContract } from "./contract/counts.ts";
import { findContract } from "./contract/find.ts";
import type { ContractOptions, Harness } from "./contract/fixtures.ts";
import { idempotencyContract } from "./contract/idempotency.ts";
import { joinsContract } from "./contract/joins-and-registrations.ts";
import { lifecycleContract } from "./contract/lifecycle.ts";
import { recordsContract } from "./contract/records.ts";
import { runsContract } from "./contract/runs.ts";
import { schedulesContract } from "./contract/schedules.ts";
import { streamsContract } from "./contract/streams.ts";
import { tasksContract } from "./contract/tasks.ts";
import { timersContract } from "./contract/timers.ts";
import { transactContract } from "./contract/transact.ts";

export type { ContractOptions } from "./contract/fixtures.ts";

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
    findContract(harness);
    tasksContract(harness);
    claimsContract(harness);
    mixedClaimsContract(harness);
    transactContract(harness);
    recordsContract(harness);
    joinsContract(harness);
    streamsContract(harness);
    lifecycleContract(harness);
    countsContract(harness);
    idempotencyContract(harness);
    bulkContract(harness);
    timersContract(harness);
    schedulesContract(harness);
  });
}
