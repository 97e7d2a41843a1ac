import { defineConfig } from "vitest/config";
import { requirePinnedNodeMajor } from "./scripts/node-version.ts";

requirePinnedNodeMajor("The chaos tests");

/**
 * `npm run test:chaos`: faults, restarts, kills, two processes, fuzzing (test/chaos). Real Redis on
 * 127.0.0.1:6379 (plus a redis-server of its own for the restart test), child processes of the
 * product, the sandbox over HTTP and the Bot API emulator. Two files at a time: the suite was sized
 * for a two-core machine, where most files spend their time waiting on timers and child processes.
 */
export default defineConfig({
  test: {
    include: ["test/chaos/**/*.test.ts"],
    testTimeout: 240_000,
    hookTimeout: 60_000,
    pool: "forks",
    setupFiles: ["test/support/fast-check-seed.ts"],
    maxWorkers: 2,
    fileParallelism: true,
  },
});
