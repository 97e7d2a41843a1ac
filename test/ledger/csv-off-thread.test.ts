import { afterAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/chart.ts";
import { journalCsvOffThread } from "../../src/ledger/csv-off-thread.ts";
import { exportJournalCsv, JOURNAL_PAGE_MAX } from "../../src/ledger/index.ts";
import { createRedisLedger } from "../../src/ledger/redis-store.ts";
import { REDIS_URL, testRedis } from "../support/redis.ts";

/**
 * The journal export as production runs it (issue 31): on a worker thread with its own connection
 * and a capped heap. Its bytes are the main thread's CSV exactly, page after page; a download that
 * stops early ends the worker; a Redis that cannot be reached fails the download, never hangs it.
 */

const redis = testRedis("csv-off-thread");
afterAll(() => redis.cleanup(), 60_000);

const T0 = Date.UTC(2026, 10, 1);
const decode = (chunks: Uint8Array[]) => Buffer.concat(chunks).toString("utf8");

async function booked(n: number) {
  const clock = { now: T0 };
  const prefix = `${redis.prefix}${n}:`;
  const ledger = createRedisLedger({ redis: redis.redis, prefix, now: () => clock.now });
  for (let i = 0; i < n; i++) {
    clock.now += 1 + (i % 2);
    const reason = i % 9 === 0 ? '=sum(1,2) "quoted", %1F' : undefined;
    await ledger.transfer({
      id: `off-${i}`,
      debit: account.merchant.funding,
      credit: account.customer(1_000 + (i % 4)),
      amountPaisa: 1 + i,
      kind: reason ? "adjustment" : "credit",
      ...(reason ? { reason } : {}),
    });
  }
  return { ledger, prefix, range: { from: T0, to: clock.now + 1 } };
}

describe("the journal export on its own thread", () => {
  it("streams the same CSV as the main thread, over several pages", async () => {
    const { ledger, prefix, range } = await booked(JOURNAL_PAGE_MAX * 2 + 150);
    const chunks: Uint8Array[] = [];
    for await (const c of journalCsvOffThread({ redis: { url: REDIS_URL }, prefix }, range))
      chunks.push(c);
    expect(chunks.length).toBeGreaterThanOrEqual(4); // the header and three pages
    const csv = decode(chunks);
    expect(csv).toBe(await exportJournalCsv(ledger, range));
    expect(csv.trimEnd().split("\r\n")).toHaveLength(JOURNAL_PAGE_MAX * 2 + 151);
  });

  it("ends when the download stops after the first chunk", async () => {
    const { prefix, range } = await booked(JOURNAL_PAGE_MAX + 10);
    const got: Uint8Array[] = [];
    for await (const c of journalCsvOffThread({ redis: { url: REDIS_URL }, prefix }, range)) {
      got.push(c);
      break;
    }
    expect(decode(got)).toBe(
      "seq,time_utc,id,kind,debit,credit,amount_rs,reference,pending_id,reason\r\n",
    );
  });

  it("fails the download when Redis cannot be reached", async () => {
    const run = async () => {
      const chunks = journalCsvOffThread(
        { redis: { url: "redis://127.0.0.1:1" }, prefix: redis.prefix },
        { from: T0, to: T0 + 1_000 },
      );
      for await (const _ of chunks) {
        // the header comes first; the page read then fails
      }
    };
    await expect(run()).rejects.toThrow();
  });
});
