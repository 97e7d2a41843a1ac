import { defineConfig } from "vitest/config";
import { requirePinnedNodeMajor } from "./scripts/node-version.ts";

requirePinnedNodeMajor("The tests");

/**
 * `npm test` runs both projects; `npm run test:unit` only the first: pure logic, no Redis, no
 * servers, no child processes, so it answers in seconds while editing.
 */
const UNIT = [
  "test/unit/**/*.test.ts",
  "test/orders/state.test.ts",
  "test/provider/money.test.ts",
  "test/provider/schemas.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores: integration suites share one Redis and bind loopback ports; forks keep them apart.
    pool: "forks",
    // fast-check's seed fixed for the run (FC_SEED to change it): see the file.
    setupFiles: ["test/support/fast-check-seed.ts"],
    projects: [
      { extends: true, test: { name: "unit", include: UNIT } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          exclude: [...UNIT, "test/chaos/**", "test/browser/**", "node_modules/**"],
        },
      },
      {
        extends: true,
        // Chromium is heavy on two cores: a page waits up to 20 s for a bubble under load, and a
        // test gets the time for its dozen such waits.
        test: { name: "browser", include: ["test/browser/**/*.test.ts"], testTimeout: 120_000 },
      },
    ],
  },
});
