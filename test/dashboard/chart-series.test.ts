import { describe, expect, it } from "vitest";
import { DAY_MS, dailySeries } from "../../src/dashboard/actions/chart.ts";
import { account, createMemoryLedger } from "../../src/ledger/index.ts";

/**
 * The chart's series when the journal is longer than one read takes (review s24-a item 3): the
 * days are read newest first, so every float shown is the books' float at the end of that day,
 * and the older days the read did not reach are left out and counted, never drawn with a figure
 * that misses entries. A small cap stands for the 50,000 entries of the page.
 */

const first = 20 * DAY_MS; // the range's first day (UTC midnight)

/** Float credits of 1, 10 and 100 paisa on three days (per day: n entries), and a sale today. */
async function threeDays(n: number) {
  const clock = { now: first };
  const ledger = createMemoryLedger({ now: () => clock.now });
  const amounts = [1, 10, 100];
  for (let d = 0; d < 3; d++) {
    for (let i = 0; i < n; i++) {
      clock.now = first + d * DAY_MS + 1_000 + i * 1_000;
      const r = await ledger.transfer({
        id: `fund-${d}-${i}`,
        debit: account.merchant.float,
        credit: account.merchant.funding,
        amountPaisa: amounts[d]!,
        kind: "credit",
      });
      expect(r.ok).toBe(true);
    }
  }
  const buyer = account.customer(7001);
  clock.now = first + 2 * DAY_MS + 3_600_000;
  await ledger.transfer({
    id: "top",
    debit: account.merchant.funding,
    credit: buyer,
    amountPaisa: 500,
    kind: "credit",
  });
  await ledger.hold({ id: "sale", debit: buyer, credit: account.merchant.sales, amountPaisa: 500 });
  expect((await ledger.post("sale")).ok).toBe(true);
  return { ledger, now: first + 2 * DAY_MS + 7_200_000 };
}

describe("dailySeries", () => {
  it("reads the whole range when it fits: the float at the end of each day", async () => {
    const { ledger, now } = await threeDays(5);
    const s = await dailySeries(ledger, now, 3);
    expect(s.leftOutDays).toBe(0);
    expect(s.points.map((p) => p.day)).toEqual([first, first + DAY_MS, first + 2 * DAY_MS]);
    expect(s.points.map((p) => p.floatPaisa)).toEqual([5, 55, 555]);
    expect(s.points.map((p) => p.salesPaisa)).toEqual([0, 0, 500]);
  });

  it("past the cap, shows only the newest days read whole, with their true float", async () => {
    // 3 × 40 float entries + 3 of the sale; a cap of 100 reads today and yesterday, not the first day.
    const { ledger, now } = await threeDays(40);
    const s = await dailySeries(ledger, now, 3, 100);
    expect(s.leftOutDays).toBe(1);
    expect(s.points.map((p) => p.day)).toEqual([first + DAY_MS, first + 2 * DAY_MS]);
    expect(s.points.map((p) => p.floatPaisa)).toEqual([40 + 400, 40 + 400 + 4_000]);
    expect(s.points.map((p) => p.salesPaisa)).toEqual([0, 500]);
  });

  it("at the page's own cap (50,000 entries), the floats shown are the books' at each day's end", async () => {
    // 30,000 float credits of 1 paisa on each of the first two days, 10 of 100 paisa today.
    const clock = { now: first };
    const ledger = createMemoryLedger({ now: () => clock.now });
    const perDay = [30_000, 30_000, 10];
    for (let d = 0; d < 3; d++) {
      for (let i = 0; i < perDay[d]!; i++) {
        clock.now = first + d * DAY_MS + i;
        await ledger.transfer({
          id: `f-${d}-${i}`,
          debit: account.merchant.float,
          credit: account.merchant.funding,
          amountPaisa: d === 2 ? 100 : 1,
          kind: "credit",
        });
      }
    }
    const s = await dailySeries(ledger, first + 2 * DAY_MS + 3_600_000, 3);
    expect(s.points.map((p) => [p.day, p.floatPaisa])).toEqual([
      [first + DAY_MS, 60_000],
      [first + 2 * DAY_MS, 61_000],
    ]);
    expect(s.leftOutDays).toBe(1);
  });

  it("shows no day when today alone is past the cap", async () => {
    const { ledger, now } = await threeDays(40);
    const s = await dailySeries(ledger, now, 3, 30);
    expect(s.points).toEqual([]);
    expect(s.leftOutDays).toBe(3);
  });
});
