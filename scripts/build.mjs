import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { basename, dirname, relative, resolve, sep } from "node:path";
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
 *
 * The flows' version hash (src/bot/flow/version.ts) is computed here and written into the output,
 * so the compiled product never reads its sources (the image has no src/ but the categories'
 * locale files, read where they are: see the Dockerfile). With
 * `withoutLocalMode` (the image: `--without-local-mode`), src/local-mode.ts and the dev/ harness it
 * plugs in are left out, and main.ts says in one line what to configure instead.
 *
 * Files are written whole and renamed into place: an `npm start` that is loading dist/ while a
 * second one builds it never reads half a file.
 */

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Rewrites `import.meta.url` in TypeScript sources to the URL of the file it is in: relative to the
 * output folder when there is one (dist/ then finds locales/ wherever the tree is, /app in the
 * image), absolute otherwise.
 * @param {string} [outdir]
 */
function sourceImportMetaUrl(outdir) {
  return {
    name: "source-import-meta-url",
    /** @param {import("esbuild").PluginBuild} b */
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        const text = await readFile(args.path, "utf8");
        const url = outdir
          ? `new URL(${JSON.stringify(relative(outdir, args.path).split(sep).join("/"))}, import.meta.url).href`
          : JSON.stringify(pathToFileURL(args.path).href);
        return { contents: text.replaceAll("import.meta.url", url), loader: "ts" };
      });
    },
  };
}

/** Replaces src/local-mode.ts (and with it all of dev/) by a module that is never called. */
const withoutLocalMode = {
  name: "without-local-mode",
  /** @param {import("esbuild").PluginBuild} b */
  setup(b) {
    b.onResolve({ filter: /\/local-mode\.ts$/ }, () => ({
      path: "local-mode",
      namespace: "absent",
    }));
    b.onLoad({ filter: /.*/, namespace: "absent" }, () => ({
      contents:
        'export function startLocalMode() { throw new Error("local mode is not in this build"); }',
      loader: "js",
    }));
  },
};

/** The flows' version hash as src/bot/flow/version.ts computes it from the sources here. */
export async function flowVersionOfSources() {
  const { outputFiles } = await build({
    entryPoints: [`${ROOT}src/bot/flow/version.ts`],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    packages: "external",
    logLevel: "warning",
    plugins: [sourceImportMetaUrl()],
  });
  const code = outputFiles[0]?.text ?? "";
  const mod = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
  return mod.flowVersion();
}

/** @param {{ entry?: string, outdir?: string, withoutLocalMode?: boolean }} [opts] */
export async function buildProduct(opts = {}) {
  const entry = opts.entry ?? `${ROOT}src/main.ts`;
  const outdir = resolve(opts.outdir ?? `${ROOT}dist`);
  // The journal export's worker thread (src/ledger/csv-off-thread.ts) is an entry of its own,
  // found beside the entry's output through __CSV_WORKER__ (relative to its source file).
  const worker = `${ROOT}src/ledger/csv-worker.ts`;
  const offThread = `${ROOT}src/ledger/csv-off-thread.ts`;
  const { outputFiles } = await build({
    entryPoints: [
      { in: entry, out: basename(entry).replace(/\.ts$/, "") },
      { in: worker, out: "csv-worker" },
    ],
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node24",
    packages: "external",
    write: false,
    define: {
      __FLOW_VERSION__: JSON.stringify(await flowVersionOfSources()),
      __LOCAL_MODE__: JSON.stringify(!opts.withoutLocalMode),
      __CSV_WORKER__: JSON.stringify(
        relative(dirname(offThread), `${outdir}/csv-worker.js`).split(sep).join("/"),
      ),
    },
    // No source maps: keeping them loaded is part of what tsx costs. Names are kept (no
    // minifying), so a stack trace still says which function.
    sourcemap: false,
    logLevel: "warning",
    plugins: opts.withoutLocalMode
      ? [withoutLocalMode, sourceImportMetaUrl(outdir)]
      : [sourceImportMetaUrl(outdir)],
  });
  for (const file of outputFiles) {
    await mkdir(dirname(file.path), { recursive: true });
    const partial = `${file.path}.${process.pid}.partial`;
    await writeFile(partial, file.contents);
    await rename(partial, file.path);
  }
  return outdir;
}

// `node scripts/build.mjs [--without-local-mode] [entry] [outdir]`
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const withoutLocalMode = args.includes("--without-local-mode");
  const [entry, outdir] = args.filter((a) => !a.startsWith("--"));
  await buildProduct({ entry, outdir, withoutLocalMode });
}
