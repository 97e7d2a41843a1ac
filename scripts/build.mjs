import { readFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

/**
 * Compiles an entry point (default src/main.ts) and what it imports from this repository into
 * plain JavaScript (dist/ by default), so that `npm start` runs on node alone. Running under tsx
 * costs about 35-45 MB of RSS for the life of the process (its loader runs in a worker thread with
 * an isolate of its own, and every module is transpiled and kept with its source map), a fifth of
 * the memory target for 10,000 open conversations (README, Performance, figure 6).
 *
 * Packages in node_modules stay imports (they are JavaScript already, and patch-package's patches
 * apply to them as installed). A module's `import.meta.url` is replaced by the URL of its source
 * file, so files found relative to it (locales, the flow version's sources, the playground's
 * assets) are read where they are in the repository. Dynamic imports become chunks of their own:
 * local mode is still loaded only when the configuration uses it.
 */

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** @param {{ entry?: string, outdir?: string }} [opts] */
export async function buildProduct(opts = {}) {
  const entry = opts.entry ?? `${ROOT}src/main.ts`;
  const outdir = opts.outdir ?? `${ROOT}dist`;
  await build({
    entryPoints: [entry],
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    // No source maps: keeping them loaded is part of what tsx costs. Names are kept (no
    // minifying), so a stack trace still says which function.
    sourcemap: false,
    logLevel: "warning",
    plugins: [
      {
        name: "source-import-meta-url",
        setup(b) {
          b.onLoad({ filter: /\.ts$/ }, async (args) => {
            const text = await readFile(args.path, "utf8");
            const url = JSON.stringify(pathToFileURL(args.path).href);
            return { contents: text.replaceAll("import.meta.url", url), loader: "ts" };
          });
        },
      },
    ],
  });
  return outdir;
}

// `node scripts/build.mjs [entry] [outdir]`
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [entry, outdir] = process.argv.slice(2);
  await buildProduct({ entry, outdir });
}
