import { afterAll, describe, expect, it } from "vitest";
import {
  type AccountId,
  account,
  changeOf,
  createMemoryLedger,
  createRedisLedger,
  type JournalEntry,
  type LedgerStore,
  postedAround,
} from "../../src/ledger/index.ts";
import { testRedis } from "../support/redis.ts";

/**
 * ledger postedAround: an account's posted balance right before and right after one entry, as the
 * booking left it (the read index's member), the same on the memory and the Redis store, however
 * many entries followed, whether the entry is first of its millisecond or not. Checked against the
 * whole journal worked forward from zero.
 */

const redis = testRedis("posted-around");
afterAll(() => redis.cleanup(), 180_000);

const T0 = Date.parse("2026-03-01T00:00:00Z");
const { funding, sales, float, adjustments } = account.merchant;
const shop = account.agent("shop-3");

const stores: Array<[string, (clock: { now: number }) => LedgerStore]> = [
  ["memory", (clock) => createMemoryLedger({ now: () => clock.now })],
  [
    "redis",
    (clock) =>
      createRedisLedger({
        redis: redis.redis,
        prefix: `${redis.prefix}${Math.random()}:`,
        now: () => clock.now,
      }),
  ],
];

/** The oracle: every entry's balances before and after on `acc`, from the whole journal. */
function expected(journal: readonly JournalEntry[], acc: AccountId) {
  let posted = 0;
  const out = new Map<string, { beforePaisa: number; afterPaisa: number }>();
  for (const e of journal) {
    if (e.debit !== acc && e.credit !== acc) continue;
    const beforePaisa = posted;
    posted += changeOf(e, acc).posted;
    out.set(e.seq, { beforePaisa, afterPaisa: posted });
  }
  return out;
}

describe.each(stores)("postedAround (%s)", (_name, make) => {
  it("gives each entry's balances before and after on both its accounts, as booked", async () => {
    const clock = { now: T0 };
    const l = make(clock);
    await l.transfer({
      id: "seed",
      debit: funding,
      credit: shop,
      amountPaisa: 90_000,
      kind: "credit",
    });
    for (let i = 0; i < 12; i++) {
      // Several entries in one millisecond (seq n > 0), then the clock moves (n = 0).
      if (i % 3 === 0) clock.now += 7;
      await l.transfer({
        id: `move-${i}`,
        debit: i % 2 ? adjustments : float,
        credit: i % 2 ? float : funding,
        amountPaisa: 1_000 + i,
        kind: "adjustment",
        reason: "correction",
      });
      await l.hold({ id: `h-${i}`, debit: shop, credit: sales, amountPaisa: 100 + i });
      await (i % 2 ? l.post(`h-${i}`) : l.void(`h-${i}`));
      await l.transfer({
        id: `f-${i}`,
        debit: sales,
        credit: float,
        amountPaisa: 7,
        kind: "float_debit",
      });
    }
    const journal = (await l.journal()).entries;
    expect(journal.some((e) => !e.seq.endsWith("-0"))).toBe(true);
    expect(journal.some((e) => e.seq.endsWith("-0") && e.id.startsWith("move-"))).toBe(true);
    for (const acc of [float, funding, adjustments, shop, sales]) {
      const want = expected(journal, acc);
      for (const e of journal.filter((x) => x.debit === acc || x.credit === acc)) {
        expect(await postedAround(l, e, acc)).toEqual(want.get(e.seq));
      }
    }
  });
});
