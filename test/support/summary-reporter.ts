// Vitest's default output, followed by the closing line CI reads: `N passed, N failed`.

import type { TestModule } from "vitest/node";
import { DefaultReporter } from "vitest/node";

export default class SummaryReporter extends DefaultReporter {
  override onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    ...rest: Parameters<DefaultReporter["onTestRunEnd"]> extends [unknown, ...infer R] ? R : never
  ): void {
    super.onTestRunEnd(testModules, ...rest);
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      // A module that failed outside its tests (an import or a beforeAll hook) is a failure
      // even when every test in it was only skipped.
      const own = [...mod.children.allTests()].some((t) => t.result().state === "failed");
      if (mod.state() === "failed" && !own) failed++;
    }
    const tail = skipped ? `, ${skipped} skipped` : "";
    process.stdout.write(`\n${passed} passed, ${failed} failed${tail}\n`);
  }
}
