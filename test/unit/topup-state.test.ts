import { describe, expect, it } from "vitest";
import type { LookupStatus } from "../../src/gateway/port.ts";
import type { TopUp, TopUpEvent, TopUpStatus } from "../../src/topup/model.ts";
import { needsPush, transition } from "../../src/topup/state.ts";

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

describe("top-up transitions", () => {
  it("Completed credits exactly the amount the lookup reports, from initiated or pending", () => {
    for (const from of ["initiated", "pending"] as const) {
      const r = transition(at(from), ev("completed", 49_900), 7);
      expect(r.changed).toBe(true);
      expect(r.effect).toEqual({
        kind: "credit",
        amountPaisa: 49_900,
        transactionId: "TXN1",
        feePaisa: 1_500,
      });
      expect(r.topUp).toMatchObject({
        status: "completed",
        creditedPaisa: 49_900,
        transactionId: "TXN1",
        feePaisa: 1_500,
        updatedAt: 7,
      });
    }
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
    for (const s of ["expired", "cancelled", "refunded"] as const)
      for (const e of ["completed", "pending", "refunded"] as const)
        expect(transition(at(s), ev(e), 2).changed).toBe(false);
  });

  it("a refund after the credit reverses it; before any credit it reverses nothing", () => {
    const done = at("completed", { creditedPaisa: 50_000 });
    for (const e of [ev("refunded"), ev("partially_refunded"), ev("completed", 50_000, true)]) {
      const r = transition(done, e, 9);
      expect(r.topUp.status).toBe("refunded");
      expect(r.effect).toEqual({ kind: "reverse", creditedPaisa: 50_000 });
    }
    const early = transition(at("pending"), ev("refunded"), 9);
    expect(early.topUp.status).toBe("refunded");
    expect(early.effect).toBeUndefined();
  });

  it("a completed top-up does not expire or get cancelled by a later lookup", () => {
    const done = at("completed", { creditedPaisa: 50_000 });
    expect(transition(done, ev("expired"), 2).changed).toBe(false);
    expect(transition(done, ev("cancelled"), 2).changed).toBe(false);
  });

  it("pushes each told status once: not while open, and not after it was told", () => {
    expect(needsPush(at("initiated"))).toBe(false);
    expect(needsPush(at("pending"))).toBe(false);
    expect(needsPush(at("completed"))).toBe(true);
    expect(needsPush(at("completed", { notified: "completed" }))).toBe(false);
    expect(needsPush(at("refunded", { notified: "completed" }))).toBe(true);
  });
});
