import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * `npm start`: compiles src/ into dist/ (scripts/build.mjs, under a second) and runs it in this
 * process on node alone, without tsx's loader (35-45 MB of RSS less; README, Performance,
 * figure 6). The build runs in a child process so that esbuild never lives in the product's
 * memory; the product runs here, in the process npm started, so SIGTERM and SIGINT reach
 * src/main.ts's handlers directly (a shell between npm and node would not pass them on).
 */
const build = fileURLToPath(new URL("./build.mjs", import.meta.url));
try {
  execFileSync(process.execPath, [build], { stdio: "inherit" });
} catch {
  process.stderr.write("Recharge assistant could not be compiled (see above)\n");
  process.exit(1);
}
await import("../dist/main.js");
