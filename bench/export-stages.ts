import { journalRead, unpackEntries } from "../src/ledger/journal-read.ts";
import type { JournalEntry } from "../src/ledger/model.ts";
import { keyspace } from "../src/redis/keyspace.ts";
import { connectRedis } from "./lib/redis.ts";

/**
 * Where a journal export's time goes, stage by stage, on one thread with nothing overlapped
 * (h-exp31): the packed page's read from Redis (the script's run plus the reply's parse), the
 * unpacking, the CSV lines, the encoding. Over the journal journal-seed-only.ts seeded
 * (BENCH_EXPORT_PREFIX, BENCH_EXPORT_FROM, BENCH_EXPORT_TO). Prints ms per 1,000 lines.
 */
const prefix = process.env.BENCH_EXPORT_PREFIX ?? "";
const from = Number(process.env.BENCH_EXPORT_FROM);
const to = Number(process.env.BENCH_EXPORT_TO);
const pages = Number(process.env.STAGE_PAGES ?? 300);
const redis = connectRedis();
const k = keyspace(prefix);
const keys = { journal: k.ledgerJournal, index: k.ledgerIndex };

const t = { read: 0, unpack: 0, csv: 0, encode: 0, lines: 0, bytes: 0, replyChars: 0 };
let start = `${from}-0`;
const encoder = new TextEncoder();
const pages_: JournalEntry[][] = [];
for (let p = 0; p < pages; p++) {
  let t0 = performance.now();
  const reply = (await journalRead.run(redis, keys, "range", start, `(${to}-0`, 1001)) as string;
  t.read += performance.now() - t0;
  t.replyChars += reply.length;
  t0 = performance.now();
  const entries = unpackEntries(reply).slice(0, 1000);
  t.unpack += performance.now() - t0;
  start = `(${entries.at(-1)!.seq}`;
  t.lines += entries.length;
  pages_.push(entries);
}
// The CSV lines through the product's own generator over the pages already read (a store in
// memory), so this is the formatting alone.
const { journalCsvChunks } = await import("../src/ledger/csv.ts");
let i = 0;
const store = {
  journal: async () => {
    const entries = pages_[i++] ?? [];
    return i < pages_.length ? { entries, next: entries.at(-1)!.seq } : { entries };
  },
} as unknown as Parameters<typeof journalCsvChunks>[0];
const chunks: string[] = [];
let t0 = performance.now();
for await (const c of journalCsvChunks(store, { from, to })) chunks.push(c);
t.csv = performance.now() - t0;
t0 = performance.now();
for (const c of chunks) t.bytes += encoder.encode(c).byteLength;
t.encode = performance.now() - t0;
// The byte path (csv-packed.ts) over the same pages read undecoded.
const { packedCsvWriter } = await import("../src/ledger/csv-packed.ts");
const buffers: Buffer[] = [];
start = `${from}-0`;
t0 = performance.now();
for (let p = 0; p < pages; p++) {
  const b = await journalRead.runBuffer<Buffer>(redis, keys, "range", start, `(${to}-0`, 1001);
  buffers.push(b);
  start = `(${pages_[p]!.at(-1)!.seq}`;
}
const readBuffer = performance.now() - t0;
const writer = packedCsvWriter();
let packedBytes = 0;

t0 = performance.now();
for (const b of buffers) packedBytes += writer.page(b, 1000, { from, to }).bytes.length;
const packed = performance.now() - t0;
// The same bytes as the string path's, page by page (chunks[0] is the header).
const check = packedCsvWriter();
buffers.forEach((b, p) => {
  const want = Buffer.from(chunks[p + 1]!, "utf8");
  if (!want.equals(check.page(b, 1000, { from, to }).bytes)) throw new Error(`page ${p} differs`);
});
const per = (ms: number) => Math.round((ms / t.lines) * 1000 * 1000) / 1000;
process.stdout.write(
  `${JSON.stringify({
    pages,
    lines: t.lines,
    replyKB: Math.round(t.replyChars / pages / 1024),
    msPer1000: {
      read: per(t.read),
      unpack: per(t.unpack),
      csv: per(t.csv),
      encode: per(t.encode),
      readBuffer: per(readBuffer),
      packed: per(packed),
      offPath: writer.offPath(),
      packedMB: Math.round(packedBytes / 2 ** 20),
    },
  })}\n`,
);
redis.disconnect();
