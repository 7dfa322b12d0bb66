import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["./scripts/build-ui.ts", "./test/support/postgres-setup.ts"],
    reporters: ["./test/support/summary-reporter.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
  },
});
