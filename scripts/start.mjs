import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * `npm start`: compiles src/ into dist/ (scripts/build.mjs, under a second) and runs it in this
 * process on node alone, without tsx's loader (35-45 MB of RSS less; README, Performance,
 * figure 6). The build runs in a child process so that esbuild never lives in the product's
 * memory; the product runs here, in the process npm started (package.json's `exec node ...`: no
 * shell left between npm and node, which would not pass signals on), so a SIGTERM or SIGINT to
 * `npm start` reaches src/main.ts's handlers: npm forwards them to its child.
 *
 * Under `npm start`, npm dying without forwarding anything (SIGKILL, a crash) stops the product
 * too, as a SIGTERM would: a server nobody started any more is not left running unseen.
 */
const build = fileURLToPath(new URL("./build.mjs", import.meta.url));
try {
  execFileSync(process.execPath, [build], { stdio: "inherit" });
} catch {
  process.stderr.write("Recharge assistant could not be compiled (see above)\n");
  process.exit(1);
}
if (process.env.npm_lifecycle_event === "start") {
  const npm = process.ppid;
  setInterval(() => {
    if (process.ppid !== npm) process.kill(process.pid, "SIGTERM");
  }, 500).unref();
}
await import("../dist/main.js");
