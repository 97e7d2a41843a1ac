import { describe, expect, it } from "vitest";
import { account, createMemoryLedger } from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import {
  createMemoryTopUpStore,
  type TopUpNotice,
  topUpReturnRoutes,
} from "../../src/payments/index.ts";
import { topUpService } from "../support/khalti.ts";
import { startTopUp, useKhaltiStandIn } from "../support/topup-rig.ts";

/**
 * The return page's lookups (issue 25) and the caps at credit time, against the Khalti stand-in
 * over loopback with no reconciler running, so every lookup the stand-in counts is the page's.
 */
describe("the return page and the caps at credit time", () => {
  const khalti = useKhaltiStandIn();

  function setUp(caps: { maxPaisa?: number; dailyCapPaisa?: number } = {}) {
    const ledger = createMemoryLedger();
    const store = createMemoryTopUpStore({ ledger });
    const notices: TopUpNotice[] = [];
    const service = (c = caps) =>
      topUpService({ apiUrl: khalti.apiUrl, store, ledger, notices, ...c });
    return { ledger, store, notices, service };
  }

  it("a burst of GETs of an open pidx costs one lookup; once final, none", async () => {
    const { service } = setUp();
    const { topUps, gateway } = service();
    const page = topUpReturnRoutes({
      topUps,
      logger: createLogger({ level: "silent" }),
      minGapMs: 60_000,
    });
    const pidx = (await startTopUp(topUps, 1, 20_000)).paymentId;
    const get = async () => (await page.request(`/?pidx=${pidx}`)).text();
    const burst = await Promise.all(Array.from({ length: 30 }, get));
    for (const html of burst) expect(html).toContain("Confirming payment");
    expect(khalti.standIn.payment(pidx)?.lookups).toBe(1);
    // Paid: the page's next lookup waits out the gap (the reconciler credits meanwhile).
    khalti.standIn.act(pidx, "pay");
    await topUps.reconcile();
    expect(await topUps.confirm("khalti", pidx)).toMatchObject({ status: "completed" });
    const seen = khalti.standIn.payment(pidx)!.lookups;
    for (let i = 0; i < 100; i++) expect(await get()).toContain("Payment received");
    expect(khalti.standIn.payment(pidx)?.lookups).toBe(seen);
    await gateway.close();
  });

  it("a refunded top-up says refunded, a partial refund says it is being checked (s20-r2 note 6)", async () => {
    const { service, ledger } = setUp();
    const { topUps, gateway } = service();
    const page = topUpReturnRoutes({ topUps, logger: createLogger({ level: "silent" }) });
    const paid = async (userId: number) => {
      const pidx = (await startTopUp(topUps, userId, 20_000)).paymentId;
      khalti.standIn.act(pidx, "pay");
      expect(await topUps.confirm("khalti", pidx)).toMatchObject({
        status: "completed",
      });
      return pidx;
    };
    const get = async (pidx: string) => (await page.request(`/?pidx=${pidx}`)).text();
    const full = await paid(11);
    khalti.standIn.refund(full);
    expect((await topUps.confirm("khalti", full))?.status).toBe("refunded");
    const fullPage = await get(full);
    expect(fullPage).toContain('data-outcome="refunded"');
    expect(fullPage).toContain("Khalti refunded this payment");
    expect(fullPage).not.toContain("Nothing was added");
    expect(fullPage).not.toContain("not completed");
    const part = await paid(12);
    khalti.standIn.refund(part, true);
    expect((await topUps.confirm("khalti", part))?.status).toBe("partial_refund");
    const partPage = await get(part);
    expect(partPage).toContain('data-outcome="refund_checking"');
    expect(partPage).toContain("part of this payment was refunded");
    expect(partPage).not.toContain("Nothing was added");
    expect(partPage).not.toContain("200");
    // Decided by an admin, Rs 50 of Rs 200: refunded in part, not "adjusted for it" (s20-r4
    // note 5: what was taken back may be less, or nothing; the chat has the figures).
    expect((await topUps.decideRefund(part, 5_000, 9)).ok).toBe(true);
    const decidedPage = await get(part);
    expect(decidedPage).toContain('data-outcome="refunded_part"');
    expect(decidedPage).toContain("Khalti refunded part of this payment");
    expect(decidedPage).not.toContain("adjusted");
    expect(decidedPage).not.toContain("50");
    // Refunded in whole after the credit was spent: nothing taken back, so not "adjusted".
    const spent = await paid(15);
    const spend = await ledger.transfer({
      id: "spend-15",
      debit: account.customer(15),
      credit: account.merchant.sales,
      amountPaisa: 20_000,
      kind: "adjustment",
      reason: "test spend",
    });
    expect(spend.ok).toBe(true);
    khalti.standIn.refund(spent);
    expect(await topUps.confirm("khalti", spent)).toMatchObject({
      status: "refunded",
      reversedPaisa: 0,
    });
    const spentPage = await get(spent);
    expect(spentPage).toContain('data-outcome="refunded_none_back"');
    expect(spentPage).toContain("Khalti refunded this payment.");
    expect(spentPage).not.toContain("adjusted");
    // Completed with refunded: true: not "part" (it may be whole); refunded in part before any
    // credit and the rest credited: "the rest was added".
    const flagged = await paid(13);
    khalti.standIn.refund(flagged, "flag");
    expect((await topUps.confirm("khalti", flagged))?.status).toBe("partial_refund");
    const flaggedPage = await get(flagged);
    expect(flaggedPage).toContain('data-outcome="refund_unknown"');
    expect(flaggedPage).not.toContain("part of this payment");
    const early = (await startTopUp(topUps, 14, 20_000)).paymentId;
    khalti.standIn.act(early, "pay");
    khalti.standIn.refund(early, true);
    expect(await get(early)).toContain('data-outcome="refund_checking"');
    expect((await topUps.decideRefund(early, 5_000, 9)).ok).toBe(true);
    const earlyPage = await get(early);
    expect(earlyPage).toContain('data-outcome="refunded_rest"');
    expect(earlyPage).toContain("the rest was added to your balance");
    await gateway.close();
  });

  it("TOPUP_MAX_AMOUNT lowered while a checkout was open: the credit is held, not booked", async () => {
    const { ledger, notices, service } = setUp();
    const before = service({ maxPaisa: 1_000_000 });
    const pidx = (await startTopUp(before.topUps, 2, 600_000)).paymentId;
    khalti.standIn.act(pidx, "pay");
    // A restart with the new setting, over the same store and books.
    const after = service({ maxPaisa: 500_000 });
    expect(await after.topUps.confirm("khalti", pidx)).toMatchObject({
      status: "held",
      held: { reasons: ["cap"], reportedPaisa: 600_000 },
    });
    expect((await ledger.check()).entries).toBe(0);
    expect(notices.map((n) => [n.audience, n.topUp.status, n.reason])).toEqual([
      ["admin", "held", "held"],
      ["customer", "held", undefined],
    ]);
    expect(await after.topUps.decide(pidx, "credit_initiated", 9)).toEqual({
      ok: false,
      reason: "above_cap",
    });
    await before.gateway.close();
    await after.gateway.close();
  });

  it("a held top-up whose customer cannot be reached still alerts the admins, once", async () => {
    const { ledger, store } = setUp();
    const sent: TopUpNotice[] = [];
    const { topUps, gateway } = topUpService({
      apiUrl: khalti.apiUrl,
      store,
      ledger,
      notices: sent,
      notify: async (n) => {
        if (n.audience === "customer") throw new Error("403: bot was blocked by the user");
        sent.push(n);
      },
    });
    const pidx = (await startTopUp(topUps, 3, 10_000)).paymentId;
    khalti.standIn.misreport(pidx, { totalAmount: 5_000_000 });
    khalti.standIn.act(pidx, "pay");
    expect(await topUps.confirm("khalti", pidx)).toMatchObject({ status: "held" });
    const lookups = khalti.standIn.payment(pidx)!.lookups;
    let clock = Date.now();
    const later = topUpService({
      apiUrl: khalti.apiUrl,
      store,
      ledger,
      notices: sent,
      notify: async (n) => {
        if (n.audience === "customer") throw new Error("403: bot was blocked by the user");
        sent.push(n);
      },
      now: () => clock,
    });
    for (let i = 0; i < 3; i++) {
      clock += 120_000; // past the push lease: the reconciler tries the customer again
      await later.topUps.reconcile();
    }
    expect(sent.map((n) => [n.audience, n.reason, n.topUp.paymentId])).toEqual([
      ["admin", "held", pidx],
    ]);
    expect((await topUps.get(pidx))?.heldAlert?.done).toBe(true);
    expect(khalti.standIn.payment(pidx)?.lookups).toBe(lookups);
    expect((await ledger.check()).entries).toBe(0);
    await gateway.close();
    await later.gateway.close();
  });
});
