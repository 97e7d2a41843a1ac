import { describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import {
  paidTopUp as paidAt,
  type TopUpStores,
  noticeText as text,
  useKhaltiRig,
} from "../support/topup-rig.ts";

/**
 * Khalti's "Partially Refunded" (s20-r2 finding 1). Its lookup does not say how much was returned,
 * so nothing is reversed on its word: the top-up waits in partial_refund, the admins are told it is
 * a PARTIAL refund and that they must enter the amount, the customer is told no figure; the
 * admin's figure then reverses exactly that, once. Memory and Redis stores.
 */

// On Redis each instance its own connection, as two processes would have.
const { khalti, storeKinds } = useKhaltiRig("partial-refund");

describe.each(storeKinds)("a partial refund at Khalti (%s)", (_name, stores) => {
  let userSeq = _name === "memory" ? 9700 : 9800;

  /** A top-up paid at Khalti and not looked up yet (nothing credited). */
  const paidTopUp = (s: TopUpStores, rupees: number) => paidAt(khalti, s, ++userSeq, rupees);

  async function creditedTopUp(s: TopUpStores, rupees: number) {
    const t = await paidTopUp(s, rupees);
    expect((await t.topUps.confirm("khalti", t.pidx))?.status).toBe("completed");
    return t;
  }

  it("reverses nothing, tells the customer no false figure and the admins it is PARTIAL", async () => {
    const s = stores();
    const t = await creditedTopUp(s, 1000);
    khalti.standIn.refund(t.pidx, true);
    t.later(3_600_000);
    await t.topUps.reconcile(500);
    const after = await t.topUps.get(t.pidx);
    expect(after?.status).toBe("partial_refund");
    expect(after?.reversedPaisa).toBeUndefined();
    expect(await t.balance()).toBe(100_000);
    const told = t.customer().at(-1) ?? "";
    expect(told).toContain("part of your payment of Rs 1,000 was refunded");
    expect(told).toContain("unchanged");
    expect(t.customer().join("\n")).not.toContain("refunded your payment of Rs 1,000");
    expect(t.customer().join("\n")).not.toContain("taken back");
    const alerts = t.admin();
    expect(alerts.map((n) => n.reason)).toEqual(["partial_refund"]);
    const alert = text(alerts[0]!);
    expect(alert).toContain("PARTIAL refund");
    expect(alert).toContain(t.pidx);
    expect(alert).toContain("Credited Rs 1,000");
    expect(alert).toContain("Enter the amount khalti returned");
    expect((await s.store().partialRefunds(50)).map((x) => x.paymentId)).toContain(t.pidx);
    await expectBooksBalanced(s.ledger);
    await t.close();
  });

  it("a later full Refunded does not move it, and the reconciler stops looking it up", async () => {
    const s = stores();
    const t = await creditedTopUp(s, 500);
    khalti.standIn.refund(t.pidx, true);
    t.later(3_600_000);
    await t.topUps.reconcile(500);
    expect((await t.topUps.get(t.pidx))?.status).toBe("partial_refund");
    // Say the rest was refunded too and Khalti now says Refunded: still the admin's figure decides.
    const applied = await t.topUps.apply("khalti", t.pidx, {
      status: "refunded",
      totalPaisa: 50_000,
      transactionId: null,
      feePaisa: 0,
      refunded: true,
    });
    expect(applied?.status).toBe("partial_refund");
    expect(await t.balance()).toBe(50_000);
    // Told and alerted: off the reconciler's schedule, however long it runs.
    t.later(86_400_000);
    const st = s.store();
    const due = await st.due(Date.now() + 10 * 86_400_000, 10_000);
    expect(due.map(([, p]) => p)).not.toContain(t.pidx);
    await t.close();
  });

  it("the admin's figure is reversed once (two instances at once), bounded by the balance, and told", async () => {
    const s = stores();
    const t = await creditedTopUp(s, 300);
    // Rs 200 of it spent.
    const spent = await s.ledger.transfer({
      id: `spend-${t.pidx}`,
      debit: account.customer(t.userId),
      credit: account.merchant.sales,
      amountPaisa: 20_000,
      kind: "adjustment",
      reason: "test spend",
    });
    expect(spent.ok).toBe(true);
    khalti.standIn.refund(t.pidx, true);
    t.later(3_600_000);
    await t.topUps.reconcile(500);
    expect(await t.balance()).toBe(10_000);
    expect(await t.topUps.decideRefund(t.pidx, 0, 3001)).toEqual({ ok: false, reason: "amount" });
    expect(await t.topUps.decideRefund(t.pidx, 30_001, 3001)).toEqual({
      ok: false,
      reason: "amount",
    });
    const [a, b] = await Promise.all([
      t.topUps.decideRefund(t.pidx, 25_000, 3001),
      t.other().decideRefund(t.pidx, 25_000, 3002),
    ]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect([a, b].find((r) => !r.ok)).toEqual({ ok: false, reason: "not_partial" });
    const after = await t.topUps.get(t.pidx);
    expect(after).toMatchObject({ status: "refunded", reversedPaisa: 10_000 });
    expect(after?.partialRefund?.decision?.returnedPaisa).toBe(25_000);
    expect(await t.balance()).toBe(0);
    const reversals = (await s.ledger.journal()).entries.filter(
      (e) => e.id === `topup:khalti:${t.pidx}:refund`,
    );
    expect(reversals).toHaveLength(1);
    expect(reversals[0]).toMatchObject({ kind: "reversal", amountPaisa: 10_000 });
    expect(t.customer().at(-1)).toBe(
      // The rest the balance lacked is owed and taken back as money comes in (review s31-pay, 4b).
      "Khalti refunded Rs 250 of your payment of Rs 300; Rs 100 was taken back from your balance. Balance: Rs 0 Your balance was short of it: the rest, Rs 150, is taken back from your balance as money comes into it (money you add, or an order's payment given back).",
    );
    const refundAlert = t.admin().find((n) => n.reason === "refund");
    expect(refundAlert).toBeDefined();
    const said = text(refundAlert!);
    expect(said).toContain("Partial refund");
    expect(said).toContain("Rs 250 returned");
    expect(said).toContain("short by Rs 150");
    expect(await t.topUps.decideRefund(t.pidx, 25_000, 3001)).toEqual({
      ok: false,
      reason: "not_partial",
    });
    await expectBooksBalanced(s.ledger);
    await t.close();
  });

  it("a full Refunded keeps reversing the whole credit", async () => {
    const s = stores();
    const t = await creditedTopUp(s, 400);
    khalti.standIn.refund(t.pidx, false);
    t.later(3_600_000);
    await t.topUps.reconcile(500);
    expect(await t.topUps.get(t.pidx)).toMatchObject({ status: "refunded", reversedPaisa: 40_000 });
    expect(await t.balance()).toBe(0);
    expect(t.customer().at(-1)).toContain("Khalti refunded your payment of Rs 400");
    await t.close();
  });

  // --- h-partial2: Completed with refunded: true (no amount), and refunds seen before any credit.

  it("Completed with refunded: true after the credit reverses nothing until the admin's figure, which may be the whole", async () => {
    const s = stores();
    const t = await creditedTopUp(s, 1000);
    khalti.standIn.refund(t.pidx, "flag");
    t.later(3_600_000);
    await t.topUps.reconcile(500);
    const after = await t.topUps.get(t.pidx);
    expect(after).toMatchObject({ status: "partial_refund", partialRefund: { mayBeWhole: true } });
    expect(after?.reversedPaisa).toBeUndefined();
    expect(await t.balance()).toBe(100_000);
    expect(t.customer().at(-1)).toBe(
      "Khalti reports that your payment of Rs 1,000 was refunded, but not how much. Our team is checking; your balance is unchanged for now. We will message you here when it is done.",
    );
    expect(t.customer().join("\n")).not.toContain("taken back");
    const alerts = t.admin();
    expect(alerts.map((n) => n.reason)).toEqual(["partial_refund"]);
    const alert = text(alerts[0]!);
    expect(alert).toContain("without saying how much");
    expect(alert).toContain("Credited Rs 1,000");
    expect(alert).toContain("the whole credit if all of it was refunded");
    expect(await t.topUps.rejectRefund(t.pidx, 3001)).toEqual({ ok: false, reason: "credited" });
    const r = await t.topUps.decideRefund(t.pidx, 100_000, 3001);
    expect(r.ok).toBe(true);
    expect(await t.topUps.get(t.pidx)).toMatchObject({
      status: "refunded",
      reversedPaisa: 100_000,
    });
    expect(await t.balance()).toBe(0);
    expect(t.customer().at(-1)).toBe(
      "Khalti refunded Rs 1,000 of your payment of Rs 1,000; Rs 1,000 was taken back from your balance. Balance: Rs 0",
    );
    await expectBooksBalanced(s.ledger);
    await t.close();
  });

  it("Partially Refunded before any credit credits nothing, alerts the admins that the payer may be owed the rest; the figure credits the rest once", async () => {
    const s = stores();
    const t = await paidTopUp(s, 1000);
    khalti.standIn.refund(t.pidx, true);
    const seen = await t.topUps.confirm("khalti", t.pidx);
    expect(seen).toMatchObject({
      status: "partial_refund",
      partialRefund: { uncredited: { reportedPaisa: 100_000 } },
    });
    expect(seen?.creditedPaisa).toBeUndefined();
    expect(await t.balance()).toBe(0);
    const told = t.customer();
    expect(told).toEqual([
      "Khalti reports that part of your payment of Rs 1,000 was refunded. Our team is checking how much; your balance is unchanged for now. We will message you here when it is done.",
    ]);
    const alerts = t.admin();
    expect(alerts.map((n) => n.reason)).toEqual(["partial_refund"]);
    const alert = text(alerts[0]!);
    expect(alert).toContain("PARTIALLY refunded, BEFORE we credited it: nothing was credited");
    expect(alert).toContain("Rs 1,000 paid");
    expect(alert).toContain("the payer may be owed the rest");
    expect(alert).toContain("the rest is then credited (within the caps)");
    expect((await s.store().partialRefunds(50)).map((x) => x.paymentId)).toContain(t.pidx);
    // At most what was paid.
    expect(await t.topUps.decideRefund(t.pidx, 0, 3001)).toEqual({ ok: false, reason: "amount" });
    expect(await t.topUps.decideRefund(t.pidx, 100_001, 3001)).toEqual({
      ok: false,
      reason: "amount",
    });
    const [a, b] = await Promise.all([
      t.topUps.decideRefund(t.pidx, 40_000, 3001),
      t.other().decideRefund(t.pidx, 40_000, 3002),
    ]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect([a, b].find((r) => !r.ok)).toEqual({ ok: false, reason: "not_partial" });
    const after = await t.topUps.get(t.pidx);
    expect(after).toMatchObject({
      status: "refunded",
      creditedPaisa: 60_000,
      partialRefund: { decision: { returnedPaisa: 40_000 } },
    });
    expect(after?.reversedPaisa).toBeUndefined();
    expect(await t.balance()).toBe(60_000);
    const journal = (await s.ledger.journal()).entries;
    const credits = journal.filter((e) => e.id === `topup:khalti:${t.pidx}`);
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({
      kind: "topup",
      amountPaisa: 60_000,
      debit: account.merchant.gateway("khalti"),
    });
    expect(journal.filter((e) => e.id === `topup:khalti:${t.pidx}:refund`)).toHaveLength(0);
    expect(t.customer().at(-1)).toBe(
      "Khalti refunded Rs 400 of your payment of Rs 1,000; the remaining Rs 600 was added to your balance. Balance: Rs 600",
    );
    // No refund alert: nothing was taken back.
    expect(t.admin().map((n) => n.reason)).toEqual(["partial_refund"]);
    // Told, and off the reconciler's schedule.
    t.later(86_400_000);
    const due = await s.store().due(Date.now() + 10 * 86_400_000, 10_000);
    expect(due.map(([, p]) => p)).not.toContain(t.pidx);
    await expectBooksBalanced(s.ledger);
    await t.close();
  });

  it("before any credit: the rest above the caps is refused, the gateway is asked again, and the admin may reject", async () => {
    const s = stores();
    const t = await paidTopUp(s, 1000);
    khalti.standIn.refund(t.pidx, "flag");
    await t.topUps.confirm("khalti", t.pidx);
    expect(await t.topUps.get(t.pidx)).toMatchObject({
      status: "partial_refund",
      partialRefund: { mayBeWhole: true, uncredited: { reportedPaisa: 100_000 } },
    });
    expect(t.customer().at(-1)).toContain("was refunded, but not how much");
    expect(text(t.admin()[0]!)).toContain("in whole or in part, BEFORE we credited it");
    // TOPUP_MAX_AMOUNT Rs 500 by now: a rest of Rs 700 is not credited.
    expect(await t.other({ maxPaisa: 50_000 }).decideRefund(t.pidx, 30_000, 3001)).toEqual({
      ok: false,
      reason: "above_cap",
    });
    // Khalti's answer changed since: not credited on the old one.
    khalti.standIn.misreport(t.pidx, { totalAmount: 90_000 });
    expect(await t.topUps.decideRefund(t.pidx, 30_000, 3001)).toEqual({
      ok: false,
      reason: "gateway_disagrees",
    });
    expect(await t.balance()).toBe(0);
    expect((await t.topUps.get(t.pidx))?.status).toBe("partial_refund");
    const [a, b] = await Promise.all([
      t.topUps.rejectRefund(t.pidx, 3001),
      t.other().rejectRefund(t.pidx, 3002),
    ]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect(await t.topUps.get(t.pidx)).toMatchObject({
      status: "rejected",
      decision: { kind: "reject" },
    });
    expect(await t.topUps.decideRefund(t.pidx, 30_000, 3001)).toEqual({
      ok: false,
      reason: "not_partial",
    });
    expect(await t.balance()).toBe(0);
    expect(t.customer().at(-1)).toBe(
      "Khalti reports your payment of Rs 1,000 refunded, in whole or in part. Our team could not add any of it to your balance; nothing was added. If Khalti kept part of it, the shop refunds that part through Khalti; ask the shop if it has not arrived.",
    );
    const journal = (await s.ledger.journal()).entries;
    expect(journal.filter((e) => e.id.startsWith(`topup:khalti:${t.pidx}`))).toHaveLength(0);
    await t.close();
  });

  it("before any credit: all of it returned credits nothing; a full Refunded says nothing was added", async () => {
    const s = stores();
    const t = await paidTopUp(s, 700);
    khalti.standIn.refund(t.pidx, true);
    await t.topUps.confirm("khalti", t.pidx);
    expect((await t.topUps.decideRefund(t.pidx, 70_000, 3001)).ok).toBe(true);
    const after = await t.topUps.get(t.pidx);
    expect(after?.status).toBe("refunded");
    expect(after?.creditedPaisa).toBeUndefined();
    expect(t.customer().at(-1)).toBe(
      "Khalti refunded your payment of Rs 700 before it was added to your balance: nothing was added or taken back. Balance: Rs 0",
    );
    const full = await paidTopUp(s, 300);
    khalti.standIn.refund(full.pidx);
    expect((await full.topUps.confirm("khalti", full.pidx))?.status).toBe("refunded");
    expect(await full.balance()).toBe(0);
    expect(full.customer()).toEqual([
      "Khalti refunded your payment of Rs 300 before it was added to your balance: nothing was added or taken back. Balance: Rs 0",
    ]);
    expect(full.admin()).toEqual([]);
    await t.close();
    await full.close();
  });
});
