import { readFileSync } from "node:fs";

/**
 * Splits a V8 .cpuprofile by layer of the bot's stack (issue 31 target 2): each busy sample goes
 * to the layer of its innermost frame that belongs to one (walking from the leaf up), so a
 * `JSON.parse` under the conversation storage counts as the storage's, a Redis reply parsed under
 * ioredis as Redis's. Shares are sample COUNTS (not the samples' time deltas, which on a loaded
 * machine include time the process was not running). Idle and `(program)` samples are left out.
 *
 *   node --import tsx bench/profile-layers.ts <file.cpuprofile> [<file2.cpuprofile> ...]
 *   (a column may be several profiles summed: a.cpuprofile+b.cpuprofile)
 *
 * With BENCH_LAYER_FNS=<layer> it lists that layer's own functions (self samples) too.
 */

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
}

/** Layer rules, first match wins for a frame; `null` = not a layer (walk on to the caller). */
const RULES: Array<[string, (url: string, fn: string) => boolean]> = [
  ["gc", (_u, f) => f === "(garbage collector)"],
  ["zlib (conversation deflate/inflate)", (u) => u === "node:zlib" || u.endsWith("/zlib.js")],
  [
    "logging (pino)",
    (u) => /node_modules\/(pino|sonic-boom|fast-redact|pino-std)|src\/logger\.ts/.test(u),
  ],
  [
    "metrics (prom-client)",
    (u) => /node_modules\/prom-client|src\/http\/metrics|metrics\.ts$/.test(u),
  ],
  ["zod", (u) => /node_modules\/zod/.test(u)],
  [
    "i18n / fluent",
    (u) => /node_modules\/@(grammyjs\/i18n|fluent)|src\/bot\/i18n\.ts|locales\//.test(u),
  ],
  ["conversations plugin (replay engine)", (u) => /node_modules\/@grammyjs\/conversations/.test(u)],
  ["conversation storage (ours)", (u) => /src\/bot\/conversation-storage\.ts/.test(u)],
  [
    "session (grammY + ours)",
    (u) => /grammy\/out\/convenience\/session|storage-redis|src\/bot\/session-storage\.ts/.test(u),
  ],
  [
    "chat turn / early read / once",
    (u) =>
      /src\/bot\/(chat-order|prefetch|carried-writes|dedupe|update-reads)\.ts|src\/redis\/chat-turns\.ts/.test(
        u,
      ),
  ],
  ["access", (u) => /src\/bot\/access\.ts|src\/accounts\//.test(u)],
  ["emulator (dev/playground)", (u) => /dev\/playground/.test(u)],
  ["hono (emulator's router)", (u) => /node_modules\/(hono|@hono)/.test(u)],
  [
    "Bot API client (grammY client, retry, fetch)",
    (u) =>
      /grammy\/out\/core\/(client|api|error|payload)|src\/telegram\/|bot-driver\.ts|src\/bot\/stale-callback|src\/whatsapp\/bot-api-fetch/.test(
        u,
      ),
  ],
  [
    "undici / web streams / Request",
    (u) =>
      /node:internal\/deps\/undici|node:internal\/webstreams|node:internal\/(url|blob)|undici/.test(
        u,
      ),
  ],
  [
    "ioredis + src/redis",
    (u) =>
      /node_modules\/(ioredis|redis-parser|denque|cluster-key-slot|standard-as-callback)|src\/redis\//.test(
        u,
      ),
  ],
  [
    "flow code (src/bot/flow, conversations/)",
    (u) => /src\/bot\/flow\/|\/conversations\/[a-z-]+\//.test(u) && !/node_modules/.test(u),
  ],
  [
    "orders / money / provider",
    (u) =>
      /src\/(orders|ledger|books|provider|payments|pricing|catalog|categories|saved|money)/.test(u),
  ],
  ["sandbox (provider stand-in)", (u) => /sandbox/.test(u)],
  ["other src/bot (middleware, texts, idle...)", (u) => /src\/bot\//.test(u)],
  ["other src", (u) => /\/src\//.test(u) && !/node_modules/.test(u)],
  [
    "grammY core (composer, context, runner)",
    (u) => /node_modules\/(grammy|@grammyjs\/runner|@grammyjs\/ratelimiter)/.test(u),
  ],
  ["bench driver", (u) => /\/bench\//.test(u)],
];

function layerOf(node: Node): string | null {
  const { url, functionName } = node.callFrame;
  for (const [name, test] of RULES) if (test(url, functionName)) return name;
  return null;
}

function summarise(file: string) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const layerCache = new Map<number, string>();
  const resolve = (id: number): string => {
    const hit = layerCache.get(id);
    if (hit) return hit;
    let out = "unattributed (native / node internals with no caller in a layer)";
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = layerOf(byId.get(cur)!);
      if (l) {
        out = l;
        break;
      }
    }
    layerCache.set(id, out);
    return out;
  };
  const counts = new Map<string, number>();
  const fnCounts = new Map<string, number>();
  const wanted = process.env.BENCH_LAYER_FNS;
  let busy = 0;
  let idle = 0;
  for (const id of profile.samples) {
    const n = byId.get(id)!;
    const fn = n.callFrame.functionName;
    if (fn === "(idle)" || fn === "(program)" || fn === "(root)") {
      idle++;
      continue;
    }
    busy++;
    const layer = resolve(id);
    counts.set(layer, (counts.get(layer) ?? 0) + 1);
    if (wanted && layer.startsWith(wanted)) {
      // With BENCH_LAYER_CALLERS=1: the innermost frame of our own code above the sample instead.
      let at: Node = n;
      if (process.env.BENCH_LAYER_CALLERS === "1") {
        for (let cur = parent.get(id); cur !== undefined; cur = parent.get(cur)) {
          const c = byId.get(cur)!;
          if (
            /\/(src|conversations)\//.test(c.callFrame.url) &&
            !/node_modules/.test(c.callFrame.url)
          ) {
            at = c;
            break;
          }
        }
      }
      const k = `${at.callFrame.functionName || "(anonymous)"} ${at.callFrame.url.replace(/^.*\/(node_modules|src|bench|dev|conversations)\//, "$1/")}:${at.callFrame.lineNumber + 1}`;
      fnCounts.set(k, (fnCounts.get(k) ?? 0) + 1);
    }
  }
  return { busy, idle, counts, fnCounts };
}

const files = process.argv.slice(2);
if (!files.length) {
  console.error("usage: profile-layers.ts <file.cpuprofile> ...");
  process.exit(2);
}
/** "a+b+c" sums several profiles into one column (e.g. the five steps of a flow, one profile each). */
function summariseAll(arg: string) {
  const parts = arg.split("+").map(summarise);
  const sum = {
    busy: 0,
    idle: 0,
    counts: new Map<string, number>(),
    fnCounts: new Map<string, number>(),
  };
  for (const p of parts) {
    sum.busy += p.busy;
    sum.idle += p.idle;
    for (const [k, v] of p.counts) sum.counts.set(k, (sum.counts.get(k) ?? 0) + v);
    for (const [k, v] of p.fnCounts) sum.fnCounts.set(k, (sum.fnCounts.get(k) ?? 0) + v);
  }
  return sum;
}
const results = files.map(summariseAll);
const layers = [...new Set(results.flatMap((r) => [...r.counts.keys()]))].sort(
  (a, b) => (results[0]!.counts.get(b) ?? 0) - (results[0]!.counts.get(a) ?? 0),
);
console.log(
  files
    .map((f, i) => `[${i + 1}] ${f}: ${results[i]!.busy} busy samples (${results[i]!.idle} idle)`)
    .join("\n"),
);
for (const l of layers) {
  const cells = results.map((r) => {
    const c = r.counts.get(l) ?? 0;
    return `${String(c).padStart(7)} ${((c / r.busy) * 100).toFixed(1).padStart(5)}%`;
  });
  console.log(`${cells.join("  ")}  ${l}`);
}
for (const [i, r] of results.entries()) {
  if (!r.fnCounts.size) continue;
  console.log(`\n[${i + 1}] ${process.env.BENCH_LAYER_FNS}: functions by self samples`);
  for (const [k, c] of [...r.fnCounts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`${String(c).padStart(7)} ${((c / r.busy) * 100).toFixed(2).padStart(6)}%  ${k}`);
}
