import { runInChild } from "./lib/child.ts";

/**
 * Paired, alternating runs of the journal export (journal-export.ts, in a child as `npm run bench`
 * runs it) from two checkouts on one seeded journal (journal-seed-only.ts): the only fair A/B on a
 * shared machine. `npx tsx bench/export-ab.ts <rootA> <rootB> [pairs]`, with BENCH_EXPORT_PREFIX,
 * BENCH_EXPORT_FROM, BENCH_EXPORT_TO (and BENCH_EXPORT_VIA) set; the order swaps each pair.
 * Prints one JSON line a run.
 */
const [rootA, rootB, pairsArg] = process.argv.slice(2);
if (!rootA || !rootB) throw new Error("usage: export-ab.ts <rootA> <rootB> [pairs]");
const pairs = Number(pairsArg ?? 6);
const run = (root: string) =>
  runInChild<Record<string, unknown>>(`${root}/bench/journal-export.ts`, {});
for (let p = 0; p < pairs; p++) {
  const order = p % 2 === 0 ? [rootA, rootB] : [rootB, rootA];
  for (const root of order) {
    const out = await run(root);
    const { linesPerSecond, rssGrowthMB, externalGrowthMB, seconds, serverCpuSeconds } = out;
    const tag = root === rootA ? "A" : "B";
    process.stdout.write(
      `${JSON.stringify({ pair: p, tag, linesPerSecond, rssGrowthMB, externalGrowthMB, seconds, serverCpuSeconds })}\n`,
    );
  }
}
