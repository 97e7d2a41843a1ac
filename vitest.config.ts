import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/chaos/**", "node_modules/**"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores: integration suites share one Redis and bind loopback ports; forks keep them apart.
    pool: "forks",
  },
});
