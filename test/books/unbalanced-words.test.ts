import { afterAll, describe, expect, it } from "vitest";
import { booksText } from "../../conversations/books/command.ts";
import {
  type BooksReport,
  createBooks,
  createFloatWatch,
  createRedisCrossings,
} from "../../src/books/index.ts";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { createRedisLedger } from "../../src/ledger/index.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { creditAgentSeven } from "../support/books.ts";
import { placedOrder, testRedis } from "../support/orders.ts";

/**
 * /books in true words where the check reached no verdict on the wallet (review s21, findings 6
 * and 12), on Redis: books that do not balance while the wallet was silent are not said to have
 * a difference "not beyond the tolerance", nor the silence "debits not known yet"; a difference
 * the unknown debits could explain is not "beyond the tolerance"; a low-float alert left standing
 * when LOW_FLOAT_ALERT is turned off is not shown, and the next reading clears it.
 */

const r = testRedis("books-unbalanced-words");
afterAll(() => r.cleanup());
const i18n = createI18n(() => "en");
const tr = (locale: string) => translator(i18n, locale);
const HOUR = 3_600_000;

async function books(name: string, opts: { lowFloatPaisa?: number } = {}) {
  const prefix = `${r.prefix}${name}:`;
  const ledger = createRedisLedger({ redis: r.redis, prefix });
  const store = createRedisOrderStore({ redis: r.redis, prefix });
  const wallet: { value: number | null } = { value: 1_000_000 };
  const clock = { now: Date.now() };
  const crossings = createRedisCrossings(r.redis, prefix);
  const b = createBooks(
    {
      ledger,
      orders: store,
      walletBalance: async () => {
        if (wallet.value === null) throw new Error("the aggregator did not answer");
        return { creditAvailablePaisa: wallet.value };
      },
      crossings,
      now: () => clock.now,
    },
    { tolerancePaisa: 100, ...opts },
  );
  await creditAgentSeven(ledger);
  const k = keyspace(prefix);
  /** Money created: a balance the journal does not have. */
  const corrupt = () => r.redis.hincrby(k.ledgerBalances, "agent:7|cp", 100_000);
  return { b, store, wallet, clock, crossings, corrupt, prefix };
}

/** The sentences that were false, in each language (the old words, not in the locales now). */
const FALSE: Record<string, RegExp> = {
  en: /not beyond the tolerance|debit of 0 orders/,
  ne: /सहनसीमाभन्दा बढी थिएन|0 अर्डरको|० अर्डरको/,
  hi: /सहनसीमा से अधिक नहीं था|0 ऑर्डर की|० ऑर्डर की/,
};

describe("books that do not balance while the wallet did not answer", () => {
  // Fails on the code before: "the books do not balance (the wallet's difference was not beyond
  // the tolerance)" under "Difference: unknown", and the no-verdict alert's "the debit of 0
  // orders was not known yet" though the wallet was silent.
  it("say the wallet did not answer, in en, ne and hi", async () => {
    const s = await books("silent");
    await s.b.check([3001]); // books the opening float
    s.wallet.value = null;
    await s.corrupt();
    await s.b.check([3001]);
    s.clock.now += 7 * HOUR;
    const report = await s.b.check([3001]);
    expect(report.lastCheck).toMatchObject({
      verdict: "beyond",
      balanced: false,
      driftPaisa: null,
    });
    expect(report.raised).toMatchObject({ unbalanced: true, noVerdict: true });
    for (const locale of ["en", "ne", "hi"]) {
      const t = tr(locale);
      const text = booksText(t, report);
      expect(text).not.toMatch(FALSE[locale]!);
      expect(text).toContain(t("books-check-wallet", { state: "no_report", count: 0 }));
      expect(text).toContain(t("books-raised-no-verdict-wallet", { hours: 7 }).split(":")[1]);
    }
    expect(report.lastCheck?.floatVerdict).toBe("no_report");
    expect(booksText(tr("en"), report)).toMatch(
      /Last check .*: the books do not balance \(no verdict on the wallet: the aggregator's wallet did not answer\); 1 admin was alerted at /,
    );
  });

  // Fails on the code before: an earlier version's record (no floatVerdict) read the same false way.
  it("read from an earlier version's record, say the same", () => {
    const AT = Date.UTC(2026, 10, 22, 8, 0);
    const report = {
      at: AT,
      balanced: false,
      postedSumPaisa: 0,
      pendingSumPaisa: 0,
      problems: 1,
      ledgerProblems: { differences: 1, belowZero: 0, pendingProblems: 0 },
      customers: { accounts: 0, balancePaisa: 0, heldPaisa: 0 },
      agents: { accounts: 0, balancePaisa: 0, heldPaisa: 0 },
      feeIncomePaisa: 0,
      complaintRefunds: {
        refunds: 0,
        paisa: 0,
        feePaisa: 0,
        orderUnread: { refunds: 0, paisa: 0 },
        outOfMargin: { refunds: 0, paisa: 0 },
      },
      margin: { orders: 0, marginPaisa: 0, commissionReportedPaisa: 0 },
      inferredDebits: { orders: 0, paisa: 0 },
      lastCheck: {
        at: AT,
        verdict: "beyond",
        driftPaisa: null,
        balanced: false,
        unknownDebits: 0,
        floatVerdictAt: AT - 7 * HOUR,
        alerts: { unbalanced: { at: AT, admins: 1 }, noVerdict: { at: AT, admins: 1 } },
        alertedAt: AT,
        alertedAdmins: 1,
      },
      raised: { drift: false, unbalanced: true, noVerdict: true, lowFloat: false },
      lowFloatPaisa: 0,
      float: {
        booksPaisa: 0,
        inFlightPaisa: 0,
        unknownDebits: 0,
        unknownBoundPaisa: 0,
        openingBooked: true,
        expectedPaisa: 0,
        reportedPaisa: null,
        driftPaisa: null,
        tolerancePaisa: 0,
        withinTolerance: null,
      },
    } satisfies BooksReport;
    for (const locale of ["en", "ne", "hi"]) {
      const text = booksText(tr(locale), report);
      expect(text).not.toMatch(FALSE[locale]!);
    }
    const en = booksText(tr("en"), report);
    expect(en).toContain("the aggregator's wallet did not answer); 1 admin was alerted");
    expect(en).toContain(
      "No verdict from the books check for 7 hours: at its last try the aggregator's wallet did not answer.",
    );
  });

  it("with the wallet within the tolerance, or debits unknown, say so", async () => {
    const s = await books("within");
    await s.b.check([3001]);
    await s.corrupt();
    const within = await s.b.check([3001]);
    expect(within.lastCheck?.floatVerdict).toBe("within");
    expect(booksText(tr("en"), within)).toContain(
      "the books do not balance (the wallet's difference was within the tolerance)",
    );
    await s.store.create(
      placedOrder({
        reference: "1700000000401",
        idempotencyKey: "k401",
        createdAt: s.clock.now - 1,
      }),
    );
    const deferred = await s.b.check([3001]);
    expect(deferred.lastCheck?.floatVerdict).toBe("deferred");
    expect(booksText(tr("en"), deferred)).toContain(
      "the books do not balance (no verdict on the wallet: the debit of 1 order was not known yet)",
    );
  });
});

describe("a difference the unknown debits could explain", () => {
  // Fails on the code before: "⚠️ The difference is beyond the tolerance now." with no verdict.
  it("is not called beyond the tolerance; one they cannot explain is", async () => {
    const s = await books("explainable");
    await s.b.check([3001]);
    await s.store.create(
      placedOrder({
        reference: "1700000000402",
        idempotencyKey: "k402",
        createdAt: s.clock.now - 1,
      }),
    );
    s.wallet.value = 1_000_000 - 5_000; // maybe the order's debit: within what it may take
    const maybe = await s.b.report();
    expect(maybe.float.withinTolerance).toBe(false);
    for (const locale of ["en", "ne", "hi"]) {
      const t = tr(locale);
      const text = booksText(t, maybe);
      expect(text).not.toContain(t("books-drift-now"));
      expect(text).toContain(t("books-drift-unknowns", { count: 1 }));
    }
    s.wallet.value = 1_000_000 - 500_000; // far more than the order could take
    const beyond = await s.b.report();
    expect(booksText(tr("en"), beyond)).toContain(tr("en")("books-drift-now"));
    expect(booksText(tr("en"), beyond)).not.toContain("no verdict.");
  });
});

describe("a low-float alert once LOW_FLOAT_ALERT is off", () => {
  // Fails on the code before: it stood on /books for good, "(alert below Rs 0)".
  it("is not shown, and the next reading clears it", async () => {
    const on = await books("low-off", { lowFloatPaisa: 100_000 });
    const reading = { reference: "1700000000403", status: "queued" as const, refused: false };
    const watchOn = createFloatWatch({
      thresholdPaisa: 100_000,
      adminChatIds: [3001],
      crossings: on.crossings,
    });
    expect(await watchOn({ ...reading, at: 1_000, creditAvailablePaisa: 50_000 })).toBe(true);
    expect((await on.b.report()).raised.lowFloat).toBe(true);

    // The same books (same prefix), restarted with the alert off.
    const off = createBooks(
      {
        ledger: createRedisLedger({ redis: r.redis, prefix: on.prefix }),
        orders: on.store,
        walletBalance: async () => ({ creditAvailablePaisa: 50_000 }),
        crossings: on.crossings,
        now: Date.now,
      },
      { tolerancePaisa: 100, lowFloatPaisa: 0 },
    );
    const shown = await off.report();
    expect(shown.raised.lowFloat).toBe(false);
    expect(booksText(tr("en"), shown)).not.toMatch(/Low float/);
    const watchOff = createFloatWatch({
      thresholdPaisa: 0,
      adminChatIds: [3001],
      crossings: on.crossings,
    });
    expect(await watchOff({ ...reading, at: 2_000, creditAvailablePaisa: 50_000 })).toBe(false);
    expect(await on.crossings.raised("low-float")).toBe(false);
    // Turned on again: the old alert does not stand; a new reading below alerts anew.
    expect((await on.b.report()).raised.lowFloat).toBe(false);
    expect(await watchOn({ ...reading, at: 3_000, creditAvailablePaisa: 50_000 })).toBe(true);
  });
});
