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
 * Review s31-pay, 4b: Khalti refunds a credit the customer's order holds. Before, nothing was
 * reversed (the balance was all held), the order's failure gave the hold back, and the customer
 * could spend Rs 500 the payer already had back from Khalti, while merchant:gateway:khalti kept
 * saying Khalti owed it. Now the rest stays owed on the top-up and the reconciler takes it back as
 * the balance rises, never below zero, once across passes and instances; the customer is told
 * each taking; what cannot be taken an admin writes off with a reason. Memory and Redis stores.
 */

const { khalti, storeKinds } = useKhaltiRig("refund-shortfall");

describe.each(storeKinds)("a refund the balance is short of (%s)", (_name, stores) => {
  let userSeq = _name === "memory" ? 9100 : 9200;
  let orderSeq = 0;

  /** Rs `rupees` credited, then an order's hold of `holdRupees`, then Khalti refunds it all. */
  async function refundedWhileHeld(s: TopUpStores, rupees: number, holdRupees: number) {
    const t = await paidAt(khalti, s, ++userSeq, rupees);
    expect((await t.topUps.confirm("khalti", t.pidx))?.status).toBe("completed");
    const hold = `order-${_name}-${++orderSeq}`;
    const placed = await s.ledger.hold({
      id: hold,
      debit: account.customer(t.userId),
      credit: account.merchant.sales,
      amountPaisa: holdRupees * 100,
    });
    expect(placed.ok).toBe(true);
    khalti.standIn.refund(t.pidx);
    t.later(5_000);
    await t.topUps.reconcile(500);
    return { ...t, hold };
  }

  const available = async (s: TopUpStores, userId: number) =>
    (await s.ledger.balance(account.customer(userId))).availablePaisa;
  /** What the books say Khalti owes the merchant (debit-normal). */
  const clearing = async (s: TopUpStores) => {
    const b = await s.ledger.balance(account.merchant.gateway("khalti"));
    return b.debitsPosted - b.creditsPosted;
  };

  it("takes the rest back once the order's hold is voided: once across two instances and passes", async () => {
    const s = stores();
    const before = await clearing(s);
    const t = await refundedWhileHeld(s, 500, 500);
    const refunded = await t.topUps.get(t.pidx);
    expect(refunded?.status).toBe("refunded");
    expect(refunded?.reversedPaisa).toBe(0);
    const alert = t.admin().map(text).join("\n");
    expect(alert).toContain("short by Rs 500");
    expect(alert).toContain("taken back by itself");
    expect(t.customer().at(-1)).toContain("the rest, Rs 500, is taken back");

    // The order fails: its hold comes back to the customer.
    expect((await s.ledger.void(t.hold)).ok).toBe(true);
    expect(await available(s, t.userId)).toBe(50_000);
    t.later(5_000);
    const other = t.other();
    await Promise.all([t.topUps.reconcile(500), other.reconcile(500)]);
    t.later(5_000);
    await t.topUps.reconcile(500);
    await other.reconcile(500);

    expect(await available(s, t.userId)).toBe(0);
    expect(await clearing(s)).toBe(before);
    const after = await t.topUps.get(t.pidx);
    expect(after?.reversedPaisa).toBe(50_000);
    expect(after?.refundRecovery).toMatchObject({ transfers: 1, takenPaisa: 50_000 });
    const rests = await s.ledger.entriesOf(`topup:khalti:${t.pidx}`);
    expect(rests.filter((e) => e.id.startsWith(`topup:khalti:${t.pidx}:refund:`))).toHaveLength(1);
    const taken = t.customer().filter((m) => m.includes("was now taken back"));
    expect(taken).toHaveLength(1);
    expect(taken[0]).toContain("the rest, Rs 500, was now taken back");
    expect(taken[0]).toContain("nothing more is owed");
    // Nothing owed: off the schedule once told.
    t.later(60_000);
    await t.topUps.reconcile(500);
    expect(await available(s, t.userId)).toBe(0);
    await expectBooksBalanced(s.ledger);
    await t.close();
  });

  it("takes only what is available each time, never below zero, until the rest is taken", async () => {
    const s = stores();
    const t = await refundedWhileHeld(s, 500, 500);
    expect((await s.ledger.void(t.hold)).ok).toBe(true);
    // The customer spends Rs 300 of it before the next pass.
    const spent = `order-${_name}-${++orderSeq}`;
    const r = await s.ledger.hold({
      id: spent,
      debit: account.customer(t.userId),
      credit: account.merchant.sales,
      amountPaisa: 30_000,
    });
    expect(r.ok).toBe(true);
    t.later(5_000);
    await t.topUps.reconcile(500);
    expect(await available(s, t.userId)).toBe(0);
    expect((await t.topUps.get(t.pidx))?.reversedPaisa).toBe(20_000);
    expect(t.customer().at(-1)).toContain("Rs 200 more was now taken back");
    expect(t.customer().at(-1)).toContain("Rs 300 is still to be taken back");
    t.later(5_000);
    await t.topUps.reconcile(500);
    expect((await t.topUps.get(t.pidx))?.reversedPaisa).toBe(20_000);
    // That order fails too: the rest is taken.
    expect((await s.ledger.void(spent)).ok).toBe(true);
    t.later(5_000);
    await t.topUps.reconcile(500);
    expect(await available(s, t.userId)).toBe(0);
    expect((await t.topUps.get(t.pidx))?.reversedPaisa).toBe(50_000);
    expect(t.customer().at(-1)).toContain("nothing more is owed");
    await expectBooksBalanced(s.ledger);
    await t.close();
  });

  it("an admin writes off what cannot be taken back, with a reason, once", async () => {
    const s = stores();
    const before = await clearing(s);
    const t = await refundedWhileHeld(s, 500, 500);
    // The order succeeded: the customer keeps what it bought; the balance will not rise.
    expect((await s.ledger.post(t.hold)).ok).toBe(true);
    expect(await t.topUps.writeOffRefund(t.pidx, 3001, " ")).toEqual({
      ok: false,
      reason: "reason",
    });
    const w = await t.topUps.writeOffRefund(t.pidx, 3001, "customer left; Khalti refunded");
    expect(w).toMatchObject({ ok: true, writtenOffPaisa: 50_000 });
    expect(await t.other().writeOffRefund(t.pidx, 3002, "again")).toEqual({
      ok: false,
      reason: "nothing_owed",
    });
    expect(await clearing(s)).toBe(before);
    const off = await s.ledger.entryOf(`topup:khalti:${t.pidx}:writeoff`);
    expect(off).toMatchObject({ kind: "adjustment", debit: "merchant:adjustments" });
    expect(off?.reason).toContain("customer left");
    // Money added later is the customer's: nothing more is taken.
    await s.ledger.transfer({
      id: `credit-${_name}-${t.userId}`,
      debit: account.merchant.funding,
      credit: account.customer(t.userId),
      amountPaisa: 10_000,
      kind: "credit",
    });
    t.later(5_000);
    await t.topUps.reconcile(500);
    expect(await available(s, t.userId)).toBe(10_000);
    await expectBooksBalanced(s.ledger);
    await t.close();
  });
});
