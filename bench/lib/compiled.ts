import { execFileSync } from "node:child_process";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";

const BUILD = fileURLToPath(new URL("../../scripts/build.mjs", import.meta.url));
const RESULTS = fileURLToPath(new URL("../results", import.meta.url));

/**
 * `npm start` runs the product compiled by scripts/build.mjs on node alone, not under tsx: a
 * benchmark server that stands for the product is compiled the same way, so that what it measures
 * is what production runs (tsx's transform also wraps every function it creates in a `__name`
 * call, a cost per closure that the build has not). Returns the compiled entry, for
 * `startHelper(..., { tsx: false })`; the build lands in bench/results/<name>-dist (git-ignored).
 */
export function compiledServer(source: string): string {
  const name = basename(source).replace(/\.ts$/, "");
  const outdir = `${RESULTS}/${name}-dist`;
  execFileSync(process.execPath, [BUILD, source, outdir], { stdio: "inherit" });
  return `${outdir}/${name}.js`;
}
