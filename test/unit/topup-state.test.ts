import { describe, expect, it } from "vitest";
import type { LookupStatus, TopUp, TopUpEvent, TopUpStatus } from "../../src/payments/index.ts";
import {
  decide,
  decideRefund,
  needsPush,
  owedAlert,
  rejectPartialRefund,
  transition as run,
} from "../../src/payments/state.ts";

/** The top-up state machine (pure): which lookup verdict moves which state, and what it books. */

const base: TopUp = {
  id: "TU0123456789",
  gateway: "khalti",
  paymentId: "bZQLD9wRVWo4CdESSfuSsB",
  paymentUrl: "http://127.0.0.1/khalti/pay?pidx=bZQLD9wRVWo4CdESSfuSsB",
  userId: 5,
  chatId: 5,
  locale: "en",
  amountPaisa: 50_000,
  status: "initiated",
  createdAt: 1,
  updatedAt: 1,
  expiresAt: 100,
  version: 0,
};
const at = (status: TopUpStatus, extra: Partial<TopUp> = {}): TopUp => ({
  ...base,
  status,
  ...extra,
});
const ev = (status: LookupStatus, totalPaisa = 50_000, refunded = false): TopUpEvent => ({
  status,
  totalPaisa,
  transactionId: status === "completed" ? "TXN1" : null,
  feePaisa: 1_500,
  refunded,
});

/** The caps allow Rs 1,000 here unless a test says otherwise. */
const transition = (t: TopUp, e: TopUpEvent, now: number, limit = 100_000) => run(t, e, now, limit);

describe("top-up transitions", () => {
  it("Completed credits the amount initiated when the lookup reports exactly it, from initiated or pending", () => {
    for (const from of ["initiated", "pending"] as const) {
      const r = transition(at(from), ev("completed", 50_000), 7);
      expect(r.changed).toBe(true);
      expect(r.effect).toEqual({
        kind: "credit",
        amountPaisa: 50_000,
        transactionId: "TXN1",
        feePaisa: 1_500,
      });
      expect(r.topUp).toMatchObject({
        status: "completed",
        creditedPaisa: 50_000,
        transactionId: "TXN1",
        feePaisa: 1_500,
        updatedAt: 7,
      });
    }
  });

  it("a Completed of another amount, above the caps, in another currency or for another order is held: nothing booked", () => {
    const cases: Array<[TopUpEvent, number, string[]]> = [
      [ev("completed", 49_900), 100_000, ["amount"]],
      [ev("completed", 5_000_000), 100_000, ["amount", "cap"]],
      [ev("completed", 50_000), 40_000, ["cap"]],
      [{ ...ev("completed"), currency: "INR" }, 100_000, ["currency"]],
      [{ ...ev("completed"), currency: "npr" }, 100_000, []],
      [{ ...ev("completed"), purchaseOrderId: "TUsomeoneelse" }, 100_000, ["merchant"]],
      [{ ...ev("completed"), purchaseOrderId: base.id }, 100_000, []],
    ];
    for (const [e, limit, reasons] of cases) {
      const r = transition(at("pending"), e, 7, limit);
      if (reasons.length === 0) {
        expect(r.topUp.status).toBe("completed");
        continue;
      }
      expect(r.effect).toBeUndefined();
      expect(r.topUp.status).toBe("held");
      expect(r.topUp.creditedPaisa).toBeUndefined();
      expect(r.topUp.held).toMatchObject({ reasons, reportedPaisa: e.totalPaisa, at: 7 });
      // A held top-up is moved by no lookup, whatever it says later.
      for (const later of [ev("completed"), ev("refunded"), ev("expired")])
        expect(transition(r.topUp, later, 8).changed).toBe(false);
    }
  });

  it("an admin's decision on a held top-up: credit what was asked, what was paid within the caps, or reject", () => {
    const held = transition(at("pending"), ev("completed", 60_000), 3).topUp;
    const asked = decide(held, "credit_initiated", 42, 4, 100_000);
    expect(asked.ok && asked.transition.effect).toEqual({
      kind: "credit",
      amountPaisa: 50_000,
      transactionId: "TXN1",
      feePaisa: 1_500,
    });
    expect(asked.ok && asked.transition.topUp).toMatchObject({
      status: "completed",
      creditedPaisa: 50_000,
      decision: { kind: "credit_initiated", adminId: 42, at: 4 },
    });
    const paid = decide(held, "credit_paid", 42, 4, 100_000);
    expect(paid.ok && paid.transition.effect).toMatchObject({ amountPaisa: 60_000 });
    expect(decide(held, "credit_paid", 42, 4, 59_999)).toEqual({ ok: false, reason: "above_cap" });
    const rejected = decide(held, "reject", 42, 4, 0);
    expect(rejected.ok && rejected.transition.topUp.status).toBe("rejected");
    expect(rejected.ok && rejected.transition.effect).toBeUndefined();
    // Less paid than asked: crediting what was asked would create money.
    const less = transition(at("pending"), ev("completed", 40_000), 3).topUp;
    expect(decide(less, "credit_initiated", 42, 4, 100_000)).toEqual({
      ok: false,
      reason: "paid_less",
    });
    const currency = transition(at("pending"), { ...ev("completed"), currency: "USD" }, 3).topUp;
    expect(decide(currency, "credit_paid", 42, 4, 100_000)).toEqual({
      ok: false,
      reason: "currency",
    });
    expect(decide(at("completed"), "reject", 42, 4, 0)).toEqual({ ok: false, reason: "not_held" });
  });

  it("a second Completed changes nothing and books nothing", () => {
    const done = transition(at("initiated"), ev("completed"), 2).topUp;
    const again = transition(done, ev("completed"), 3);
    expect(again.changed).toBe(false);
    expect(again.effect).toBeUndefined();
  });

  it("Completed with no amount is not believed", () => {
    expect(transition(at("pending"), ev("completed", 0), 2).changed).toBe(false);
  });

  it("Pending, Initiated, Expired and User canceled never book anything", () => {
    expect(transition(at("initiated"), ev("pending"), 2)).toMatchObject({
      changed: true,
      topUp: { status: "pending" },
    });
    expect(transition(at("pending"), ev("initiated"), 2).changed).toBe(false);
    expect(transition(at("pending"), ev("pending"), 2).changed).toBe(false);
    for (const [e, s] of [
      ["expired", "expired"],
      ["cancelled", "cancelled"],
    ] as const) {
      const r = transition(at("pending"), ev(e), 2);
      expect(r.topUp.status).toBe(s);
      expect(r.effect).toBeUndefined();
    }
  });

  it("final states never move, whatever a lookup says later", () => {
    for (const s of ["expired", "cancelled", "refunded", "rejected"] as const)
      for (const e of ["completed", "pending", "refunded"] as const)
        expect(transition(at(s), ev(e), 2).changed).toBe(false);
  });

  it("a full Refunded after the credit reverses it; before any credit it reverses nothing", () => {
    const done = at("completed", { creditedPaisa: 50_000 });
    const r = transition(done, ev("refunded"), 9);
    expect(r.topUp.status).toBe("refunded");
    expect(r.effect).toEqual({ kind: "reverse", upToPaisa: 50_000 });
    for (const from of ["initiated", "pending"] as const) {
      const early = transition(at(from), ev("refunded"), 9);
      expect(early.topUp.status).toBe("refunded");
      expect(early.topUp.creditedPaisa).toBeUndefined();
      expect(early.effect).toBeUndefined();
    }
  });

  it("Completed with refunded: true after the credit does not say how much: it waits for an admin's figure, as a partial refund", () => {
    const done = at("completed", { creditedPaisa: 50_000 });
    const r = transition(done, ev("completed", 50_000, true), 9);
    expect(r.topUp).toMatchObject({
      status: "partial_refund",
      partialRefund: { at: 9, mayBeWhole: true },
    });
    expect(r.topUp.partialRefund?.uncredited).toBeUndefined();
    expect(r.effect).toBeUndefined();
    expect(owedAlert(r.topUp)).not.toBeNull();
    // The admin may enter the whole credit: then all of it is reversed.
    const d = decideRefund(r.topUp, 50_000, 7, 11);
    if (!d.ok) throw new Error("refused");
    expect(d.transition.effect).toEqual({ kind: "reverse", upToPaisa: 50_000 });
    expect(rejectPartialRefund(r.topUp, 7, 11)).toEqual({ ok: false, reason: "credited" });
  });

  it("a refund without its amount before any credit credits nothing and waits for an admin: the rest by the figure, or rejected", () => {
    const cases: Array<[TopUpEvent, boolean]> = [
      [ev("partially_refunded"), false],
      [ev("completed", 50_000, true), true],
    ];
    for (const from of ["initiated", "pending"] as const)
      for (const [e, mayBeWhole] of cases) {
        const r = transition(at(from), { ...e, transactionId: "TXN1" }, 9);
        expect(r.effect).toBeUndefined();
        expect(r.topUp.status).toBe("partial_refund");
        expect(r.topUp.creditedPaisa).toBeUndefined();
        expect(r.topUp.partialRefund).toEqual({
          at: 9,
          ...(mayBeWhole ? { mayBeWhole: true } : {}),
          uncredited: { reportedPaisa: 50_000, transactionId: "TXN1", feePaisa: 1_500 },
        });
        expect(owedAlert(r.topUp)).not.toBeNull();
        expect(needsPush(r.topUp)).toBe(true);
        for (const later of [ev("completed"), ev("refunded"), ev("partially_refunded")])
          expect(transition(r.topUp, later, 10).changed).toBe(false);
        const w = r.topUp;
        // At most what was paid; the rest within the caps.
        expect(decideRefund(w, 50_001, 7, 11, 100_000)).toEqual({ ok: false, reason: "amount" });
        expect(decideRefund(w, 0, 7, 11, 100_000)).toEqual({ ok: false, reason: "amount" });
        expect(decideRefund(w, 20_000, 7, 11, 29_999)).toEqual({ ok: false, reason: "above_cap" });
        const part = decideRefund(w, 20_000, 7, 11, 30_000);
        if (!part.ok) throw new Error("refused");
        expect(part.transition.effect).toEqual({
          kind: "credit",
          amountPaisa: 30_000,
          transactionId: "TXN1",
          feePaisa: 1_500,
        });
        expect(part.transition.topUp).toMatchObject({
          status: "refunded",
          creditedPaisa: 30_000,
          partialRefund: { decision: { returnedPaisa: 20_000, adminId: 7, at: 11 } },
        });
        // All of it returned: nothing owed, nothing credited (whatever the caps).
        const all = decideRefund(w, 50_000, 7, 11, 0);
        if (!all.ok) throw new Error("refused");
        expect(all.transition.effect).toBeUndefined();
        expect(all.transition.topUp).toMatchObject({ status: "refunded" });
        expect(all.transition.topUp.creditedPaisa).toBeUndefined();
        const rej = rejectPartialRefund(w, 7, 11);
        if (!rej.ok) throw new Error("refused");
        expect(rej.transition.effect).toBeUndefined();
        expect(rej.transition.topUp).toMatchObject({
          status: "rejected",
          decision: { kind: "reject", adminId: 7, at: 11 },
        });
        expect(rejectPartialRefund(rej.transition.topUp, 7, 12)).toEqual({
          ok: false,
          reason: "not_partial",
        });
      }
    // Without an amount it is not believable: nothing moves, look again.
    expect(transition(at("pending"), ev("partially_refunded", 0), 9).changed).toBe(false);
  });

  it("a partial refund after the credit reverses nothing: it waits for an admin's figure", () => {
    const done = at("completed", { creditedPaisa: 50_000 });
    const r = transition(done, ev("partially_refunded"), 9);
    expect(r.topUp).toMatchObject({ status: "partial_refund", partialRefund: { at: 9 } });
    expect(r.effect).toBeUndefined();
    expect(owedAlert(r.topUp)).not.toBeNull();
    // No later lookup moves it, a full Refunded included.
    for (const e of [ev("refunded"), ev("partially_refunded"), ev("completed", 50_000, true)])
      expect(transition(r.topUp, e, 10).changed).toBe(false);
    expect(decideRefund(r.topUp, 0, 1, 11)).toEqual({ ok: false, reason: "amount" });
    expect(decideRefund(r.topUp, 50_001, 1, 11)).toEqual({ ok: false, reason: "amount" });
    expect(decideRefund(r.topUp, 1.5, 1, 11)).toEqual({ ok: false, reason: "amount" });
    expect(decideRefund(done, 100, 1, 11)).toEqual({ ok: false, reason: "not_partial" });
    const d = decideRefund(r.topUp, 20_000, 7, 11);
    if (!d.ok) throw new Error("refused");
    expect(d.transition.topUp).toMatchObject({
      status: "refunded",
      partialRefund: { decision: { returnedPaisa: 20_000, adminId: 7, at: 11 } },
    });
    expect(d.transition.effect).toEqual({ kind: "reverse", upToPaisa: 20_000 });
  });

  it("a completed top-up does not expire or get cancelled by a later lookup: the word is recorded once, no money moves", () => {
    const done = at("completed", { creditedPaisa: 50_000 });
    for (const word of ["expired", "cancelled"] as const) {
      const r = transition(done, ev(word), 2);
      // Review s33-rvpay: recorded (and alerted) once, never a status change or a reversal.
      expect(r.topUp.status).toBe("completed");
      expect(r.effect).toBeUndefined();
      expect(r.topUp.unknownAfterCredit).toMatchObject({ contradicts: true, at: 2 });
      expect(transition(r.topUp, ev(word), 3).changed).toBe(false);
    }
  });

  it("pushes each told status once: not while open, and not after it was told", () => {
    expect(needsPush(at("initiated"))).toBe(false);
    expect(needsPush(at("pending"))).toBe(false);
    expect(needsPush(at("completed"))).toBe(true);
    expect(needsPush(at("completed", { notified: "completed" }))).toBe(false);
    expect(needsPush(at("refunded", { notified: "completed" }))).toBe(true);
    expect(needsPush(at("held"))).toBe(true);
    expect(needsPush(at("completed", { notified: "held" }))).toBe(true);
  });
});
