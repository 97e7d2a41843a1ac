import { afterAll, describe, expect, it } from "vitest";
import {
  STATEMENT_CSV_HEADER,
  statementOf,
  statementPage,
  statementToCsv,
} from "../../src/accounts/index.ts";
import {
  account,
  createMemoryLedger,
  createRedisLedger,
  type LedgerStore,
} from "../../src/ledger/index.ts";
import { testRedis } from "../support/redis.ts";
import { paisaOfDecimal } from "../support/statement.ts";

/**
 * A customer's statement for a range (issue 29): the journal's entries of the account, each with
 * its change and the running balance, the opening balance worked back from today's, holds shown as
 * held (not spent) until posted or voided; the CSV's changes sum from the opening to the closing.
 * On the memory and the Redis ledger.
 */

const redis = testRedis("statement");
afterAll(() => redis.cleanup());

const DAY = 86_400_000;
const T0 = Date.parse("2026-03-01T00:00:00Z");
const C = account.customer(4242);

async function history(ledger: LedgerStore, clock: { now: number }) {
  const at = async (ms: number, f: () => Promise<{ ok: boolean }>) => {
    clock.now = ms;
    expect((await f()).ok).toBe(true);
  };
  const credit = (id: string, paisa: number) => () =>
    ledger.transfer({
      id,
      debit: account.merchant.funding,
      credit: C,
      amountPaisa: paisa,
      kind: "credit",
    });
  // Before the range: Rs 100 credited.
  await at(T0, credit("c1", 10_000));
  // In the range: Rs 50 credited, an order of Rs 30 held then posted, one of Rs 20 held then voided.
  await at(T0 + 2 * DAY, credit("c2", 5_000));
  await at(T0 + 3 * DAY, () =>
    ledger.hold({ id: "order:1", debit: C, credit: account.merchant.sales, amountPaisa: 3_000 }),
  );
  await at(T0 + 3 * DAY + 1, () => ledger.post("order:1"));
  await at(T0 + 4 * DAY, () =>
    ledger.hold({ id: "order:2", debit: C, credit: account.merchant.sales, amountPaisa: 2_000 }),
  );
  await at(T0 + 4 * DAY + 1, () => ledger.void("order:2"));
  // Still held at the range's end: Rs 10.
  await at(T0 + 5 * DAY, () =>
    ledger.hold({ id: "order:3", debit: C, credit: account.merchant.sales, amountPaisa: 1_000 }),
  );
  // After the range: Rs 7 credited (today's balance includes it; the range does not).
  await at(T0 + 9 * DAY, credit("c3", 700));
  // Someone else's money never shows.
  await at(T0 + 2 * DAY, () =>
    ledger.transfer({
      id: "other",
      debit: account.merchant.funding,
      credit: account.customer(99),
      amountPaisa: 1,
      kind: "credit",
    }),
  );
}

describe.each([
  ["memory", (clock: { now: number }) => createMemoryLedger({ now: () => clock.now })],
  [
    "redis",
    (clock: { now: number }) =>
      createRedisLedger({
        redis: redis.redis,
        prefix: `${redis.prefix}${Math.random()}:`,
        now: () => clock.now,
      }),
  ],
])("a statement (%s)", (_name, make) => {
  it("opens, runs and closes right; the CSV sums from opening to closing", async () => {
    const clock = { now: T0 };
    const ledger = make(clock);
    await history(ledger, clock);
    const s = await statementOf(ledger, C, { from: T0 + DAY, to: T0 + 8 * DAY });
    if (!s.complete) throw new Error("incomplete");
    expect(s.openingPostedPaisa).toBe(10_000);
    expect(s.openingHeldPaisa).toBe(0);
    expect(s.lines.map((l) => [l.entry.kind, l.postedChangePaisa, l.heldChangePaisa])).toEqual([
      ["credit", 5_000, 0],
      ["hold", 0, 3_000],
      ["post", -3_000, -3_000],
      ["hold", 0, 2_000],
      ["void", 0, -2_000],
      ["hold", 0, 1_000],
    ]);
    expect(s.closingPostedPaisa).toBe(12_000);
    expect(s.closingHeldPaisa).toBe(1_000);
    expect(s.lines.at(-1)).toMatchObject({ postedPaisa: 12_000, heldPaisa: 1_000 });

    const csv = statementToCsv(s).trimEnd().split("\r\n");
    expect(csv[0]).toBe(STATEMENT_CSV_HEADER.join(","));
    const col = (name: (typeof STATEMENT_CSV_HEADER)[number]) => STATEMENT_CSV_HEADER.indexOf(name);
    const rows = csv.slice(1).map((l) => l.split(","));
    expect(rows[0]?.[col("kind")]).toBe("opening");
    expect(rows.at(-1)?.[col("kind")]).toBe("closing");
    const opening = paisaOfDecimal(rows[0]![col("balance_rs")]!);
    const closing = paisaOfDecimal(rows.at(-1)![col("balance_rs")]!);
    const sum = rows.slice(1, -1).reduce((t, r) => t + paisaOfDecimal(r[col("change_rs")]!), 0);
    expect([opening, closing]).toEqual([10_000, 12_000]);
    expect(opening + sum).toBe(closing);
  });

  it("is empty for a quiet range, with today's balance worked back", async () => {
    const clock = { now: T0 };
    const ledger = make(clock);
    await history(ledger, clock);
    const s = await statementOf(ledger, C, { from: T0 + 6 * DAY, to: T0 + 7 * DAY });
    expect(s).toMatchObject({
      complete: true,
      lines: [],
      openingPostedPaisa: 12_000,
      closingPostedPaisa: 12_000,
      openingHeldPaisa: 1_000,
    });
  });

  it("reads only the account's own lines, and says it is incomplete past its bound", async () => {
    const clock = { now: T0 };
    const ledger = make(clock);
    await history(ledger, clock);
    const noise = (id: string, to: ReturnType<typeof account.customer>) =>
      ledger.transfer({
        id,
        debit: account.merchant.funding,
        credit: to,
        amountPaisa: 1,
        kind: "credit",
      });
    // Others' entries, however many, cost nothing (the read index gives the account's own).
    for (let i = 0; i < 1_001; i++) {
      clock.now = T0 + 10 * DAY + i;
      await noise(`noise-${i}`, account.customer(77));
    }
    const s = await statementOf(ledger, C, { from: T0, to: T0 + 12 * DAY }, 1_000);
    expect(s).toMatchObject({ complete: true, closingPostedPaisa: 12_700 });
    // More lines of its own in the range than the bound: incomplete, never a part shown as all.
    for (let i = 0; i < 1_001; i++) {
      clock.now = T0 + 11 * DAY + i;
      await noise(`mine-${i}`, C);
    }
    const long = await statementOf(ledger, C, { from: T0, to: T0 + 12 * DAY }, 1_000);
    expect(long).toMatchObject({ complete: false, readEntries: 1_000 });
    const first = await statementPage(ledger, C, { from: T0, to: T0 + 12 * DAY }, { limit: 5 });
    expect(first.lines).toHaveLength(5);
    expect(first.openingPostedPaisa).toBe(0);
    const second = await statementPage(
      ledger,
      C,
      { from: T0, to: T0 + 12 * DAY },
      { limit: 5, after: first.next },
    );
    expect(second.lines[0]!.postedPaisa - second.lines[0]!.postedChangePaisa).toBe(
      first.lines[4]!.postedPaisa,
    );
  });
});
