import { readFileSync } from "node:fs";

/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`, e.g. BENCH_CPU_PROF=1 npm run bench):
 * self time by function and by package/file, and inclusive time of our own functions.
 *
 *   node --import tsx bench/profile-summary.ts bench/results/<name>.cpuprofile [top]
 */

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: profile-summary.ts <file.cpuprofile> [top]");
  process.exit(2);
}
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Self time per node from samples and their time deltas (microseconds).
const self = new Map<number, number>();
profile.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);

function area(url: string): string {
  if (!url) return "(native/idle)";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  if (url.startsWith("node:")) return url;
  const ours = /\/work\/(?:main|wt\/[^/]+)\/(.+)$/.exec(url.replace("file://", ""));
  return ours ? ours[1]! : url;
}

const areaInclusive = new Map<string, number>();
const fnSelf = new Map<string, number>();
const areaSelf = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, t] of self) {
  const n = byId.get(id)!;
  const key = `${n.callFrame.functionName || "(anonymous)"} ${area(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  fnSelf.set(key, (fnSelf.get(key) ?? 0) + t);
  const a = area(n.callFrame.url);
  areaSelf.set(a, (areaSelf.get(a) ?? 0) + t);
  // Inclusive time: every distinct ancestor frame key (and package) gets the sample's time once.
  const seenArea = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const ar = area(byId.get(cur)!.callFrame.url);
    if (seenArea.has(ar)) continue;
    seenArea.add(ar);
    areaInclusive.set(ar, (areaInclusive.get(ar) ?? 0) + t);
  }
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const c = byId.get(cur)!;
    const k = `${c.callFrame.functionName || "(anonymous)"} ${area(c.callFrame.url)}:${c.callFrame.lineNumber + 1}`;
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + t);
  }
}

const pct = (t: number) => `${((t / total) * 100).toFixed(1).padStart(5)}%`;
const print = (
  title: string,
  m: Map<string, number>,
  n: number,
  filter?: (k: string) => boolean,
) => {
  console.log(`\n${title}`);
  const rows = [...m.entries()]
    .filter(([k]) => (filter ? filter(k) : true))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n);
  for (const [k, t] of rows) {
    console.log(`${pct(t)}  ${(t / 1000).toFixed(0).padStart(7)} ms  ${k}`);
  }
};
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
print("self time by package / file", areaSelf, top);
print("inclusive time by package / file", areaInclusive, top);
print("self time by function", fnSelf, top);
print("inclusive time of our functions (src/, conversations/, bench/)", inclusive, top, (k) =>
  / (src|conversations)\//.test(k),
);
