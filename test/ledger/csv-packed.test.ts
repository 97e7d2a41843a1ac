import { afterAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/chart.ts";
import { isoTimes, journalCsvChunks, pageCsv } from "../../src/ledger/csv.ts";
import { journalCsvBytes, packedCsvWriter } from "../../src/ledger/csv-packed.ts";
import { unpackEntries } from "../../src/ledger/journal-read.ts";
import { journalPackedReader } from "../../src/ledger/redis-reads.ts";
import { createRedisLedger } from "../../src/ledger/redis-store.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { testRedis } from "../support/redis.ts";

/**
 * The export's byte path (csv-packed.ts): a packed journal page written straight as CSV bytes
 * must be the string path's text (csv.ts pageCsv of journal-read.ts unpackEntries) encoded, byte
 * for byte, on every awkward field; a page it cannot take goes the string way whole (the same
 * bytes, or the same error).
 */

const T0 = Date.UTC(2026, 10, 1, 5, 59, 58, 7);
/** The journal script's escapes (journal-read.ts esc): '%', RS and US as %XX. */
const esc = (s: string) =>
  [...s]
    .map((c) =>
      c === "%" || c === "\x1e" || c === "\x1f"
        ? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`
        : c,
    )
    .join("");
type Fields = [string, string, string, string, string, string, string, string, string];
const entry = (i: number, over: Partial<Record<number, string>> = {}): Fields => {
  const f: Fields = [
    `${T0 + i * 997}-${i % 3}`,
    `id-${i}`,
    "credit",
    "merchant:funding",
    `customer:${1000 + i}`,
    String(100 * i + (i % 100)),
    "",
    "",
    "",
  ];
  for (const [k, v] of Object.entries(over)) if (v !== undefined) f[Number(k)] = v;
  return f;
};
const packed = (entries: Fields[], raw = false) =>
  Buffer.from(
    entries
      .map((f) => (raw ? f : f.map((v, k) => (k === 6 || k === 8 ? esc(v) : v))).join("\x1f"))
      .join("\x1f"),
    "utf8",
  );
const range = { from: T0, to: T0 + 1_000_000 };
/** The string path's bytes for a packed page, and whether a next page exists. */
const byStrings = (reply: Buffer, limit: number, r = range) => {
  const all = unpackEntries(reply.toString("utf8"));
  const text = pageCsv(all.slice(0, limit), r, isoTimes());
  return {
    bytes: Buffer.from(text, "utf8"),
    next: all.length > limit ? all[limit - 1]!.seq : undefined,
  };
};

/** Ids and pending ids are not escaped by the script: no RS or US in them. */
const noSeparators = (s: string) => s.replaceAll("\x1e", "").replaceAll("\x1f", "");
/** A page whose reference holds a byte that is not UTF-8. */
const invalidUtf8 = () => {
  const b = packed([entry(0, { 6: "a~b" })]);
  b[b.indexOf("~")] = 0xff;
  return b;
};

const AWKWARD = [
  '=sum(1,2) "quoted", %1F',
  "+977-98",
  "-minus",
  "@at",
  "\ttab",
  "\rCR first",
  "line\nbreak",
  "crlf\r\nend",
  'only "quotes"',
  "comma, here",
  "नेपाल टेलिकम",
  'रु. १००, "छुट"',
  "emoji 📱 top-up",
  "100% done",
  "%",
  "%2",
  "%1f lower",
  "%41 literal A escape",
  "%25 literal",
  "rs\x1eus\x1f both",
  "=",
  "'already",
];

describe("the export's CSV bytes from packed pages", () => {
  it("are the string path's bytes on every awkward field, with no page off the byte path", () => {
    const entries: Fields[] = AWKWARD.flatMap((text, i) => [
      entry(i * 4, { 6: text }),
      entry(i * 4 + 1, { 8: text, 2: "adjustment" }),
      entry(i * 4 + 2, { 1: noSeparators(text), 7: noSeparators(text) }),
      entry(i * 4 + 3, { 5: i % 2 ? `-${i * 37}` : String(i), 6: text, 8: text }),
    ]);
    entries.push(entry(200, { 5: "0" }), entry(201, { 5: "-0" }), entry(202, { 5: "0007" }));
    entries.push(entry(203, { 5: "999999999999999" }), entry(204, { 5: "-5" }));
    const writer = packedCsvWriter();
    for (const limit of [entries.length, entries.length - 1, 7]) {
      const reply = packed(entries.slice(0, limit + 1));
      const want = byStrings(reply, limit);
      const got = writer.page(reply, limit, range);
      expect(Buffer.from(got.bytes).toString("utf8")).toBe(want.bytes.toString("utf8"));
      expect(Buffer.from(got.bytes).equals(want.bytes)).toBe(true);
      expect(got.next).toBe(want.next);
    }
    expect(writer.offPath()).toBe(0);
  });

  it("leave out the entries outside the range, and write a minute's head per minute", () => {
    const entries = Array.from({ length: 300 }, (_, i) => entry(i));
    const reply = packed(entries);
    const inner = { from: T0 + 50 * 997, to: T0 + 250 * 997 };
    const writer = packedCsvWriter();
    for (const r of [range, inner, { from: 0, to: T0 }]) {
      const got = writer.page(reply, 299, r);
      expect(Buffer.from(got.bytes).equals(byStrings(reply, 299, r).bytes)).toBe(true);
    }
    expect(writer.page(Buffer.alloc(0), 10, range).bytes.length).toBe(0);
    expect(writer.offPath()).toBe(0);
  });

  it("send a page the byte path cannot take the string way: the same bytes", () => {
    const odd: Array<[string, Buffer]> = [
      ["invalid UTF-8", invalidUtf8()],
      ["an amount with a plus", packed([entry(0, { 5: "+5" })])],
      ["an amount with spaces", packed([entry(0, { 5: " 5" })])],
      ["an escape above 0x7F", packed([entry(0, { 6: "%C3%A9" })], true)],
      ["a seq without its n", packed([entry(0, { 0: `${T0}` })])],
      ["sixteen digits", packed([entry(0, { 5: "1234567890123456" })])],
    ];
    for (const [why, reply] of odd) {
      const writer = packedCsvWriter();
      let want: Buffer | Error;
      try {
        want = byStrings(reply, 10).bytes;
      } catch (err) {
        want = err as Error;
      }
      if (want instanceof Error) {
        expect(() => writer.page(reply, 10, range), why).toThrow(want.message);
      } else {
        expect(Buffer.from(writer.page(reply, 10, range).bytes).equals(want), why).toBe(true);
      }
      expect(writer.offPath(), why).toBe(1);
    }
  });

  it("refuse what unpackEntries refuses, with its error", () => {
    const writer = packedCsvWriter();
    const unknown = packed([entry(0), entry(1, { 2: "gift" })]);
    expect(() => writer.page(unknown, 5, range)).toThrow(/unexpected ledger journal entry/);
    const short = Buffer.from(
      packed([entry(0)])
        .toString("utf8")
        .split("\x1f")
        .slice(0, 8)
        .join("\x1f"),
    );
    expect(() => writer.page(short, 5, range)).toThrow(/unexpected ledger journal reply/);
    // The extra entry (the next page's first) is checked too, as the string path checks it.
    const extra = packed([entry(0), entry(1, { 5: "x" })]);
    expect(() => writer.page(extra, 1, range)).toThrow(/unexpected ledger journal entry/);
  });
});

const redis = testRedis("csv-packed");
afterAll(() => redis.cleanup(), 60_000);

describe("the export's CSV bytes from Redis", () => {
  it("are journalCsvChunks' text encoded, over several pages of awkward text", async () => {
    const clock = { now: T0 };
    const ledger = createRedisLedger({
      redis: redis.redis,
      prefix: redis.prefix,
      now: () => clock.now,
    });
    for (let i = 0; i < 2_300; i++) {
      clock.now += 1 + (i % 3);
      const text = AWKWARD[i % AWKWARD.length]!;
      const adjust = i % 5 === 0;
      await ledger.transfer({
        id: `pk-${i}`,
        debit: account.merchant.funding,
        credit: account.customer(1_000 + (i % 7)),
        amountPaisa: 1 + i * 13,
        kind: adjust ? "adjustment" : "credit",
        ...(adjust ? { reason: text } : { reference: text }),
      });
    }
    const r = { from: T0 + 100, to: clock.now };
    let want = "";
    for await (const c of journalCsvChunks(ledger, r)) want += c;
    const read = journalPackedReader(redis.redis, keyspace(redis.prefix));
    const got: Buffer[] = [];
    const writer = packedCsvWriter();
    for await (const c of journalCsvBytes(read, r, writer)) got.push(Buffer.from(c));
    expect(writer.offPath()).toBe(0);
    expect(got.length).toBeGreaterThanOrEqual(4); // the header and three pages
    expect(Buffer.concat(got).equals(Buffer.from(want, "utf8"))).toBe(true);
  });
});
