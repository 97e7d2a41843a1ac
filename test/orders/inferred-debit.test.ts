import { describe, expect, it } from "vitest";
import { orderStatusText } from "../../conversations/status/status-text.ts";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { inferredWallet } from "../../src/orders/inferred-debit.ts";
import type { Order } from "../../src/orders/model.ts";
import { bookingsOf } from "../../src/orders/postings.ts";
import { transition } from "../../src/orders/state.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * The debit of a success no answer gave figures for (issue 25): inferred from the order, marked,
 * booked, replaced by the aggregator's own figures when they come, and shown to admins as inferred.
 */

const t = translator(
  createI18n(() => "en"),
  "en",
);

const india = (over: Partial<Order> = {}) =>
  placedOrder({
    region: "in",
    category: "india",
    operatorId: 202,
    operatorName: "Airtel Prepaid",
    connectionNo: "9810012345",
    details: { circleId: "5" },
    amountPaisa: 10_000,
    ...over,
  } as Partial<Order>);

describe("an inferred debit", () => {
  it("is the face amount, an India order's ₹ in the wallet's Nepal rupees", () => {
    expect(inferredWallet(placedOrder({ amountPaisa: 20_000 }))).toEqual({
      amountPaisa: 20_000,
      serviceChargePaisa: 0,
      instantDiscountPaisa: 0,
      debitAmountPaisa: 20_000,
      creditAvailablePaisa: null,
      source: "inferred",
    });
    // The default rate (1.6) without an exchange on the order; the order's own rate with one.
    expect(inferredWallet(india()).debitAmountPaisa).toBe(16_000);
    const rated = india({ exchange: { rateE4: 16_500, totalPaisa: 16_500, feePaisa: 0 } });
    expect(inferredWallet(rated).debitAmountPaisa).toBe(16_500);
    // A staff-mode India order: the rate configured when it was placed (review s25-c, note).
    expect(inferredWallet(india({ inrToNprRateE4: 16_800 })).debitAmountPaisa).toBe(16_800);
  });

  it("is recorded by the step into success without figures, and booked with its reason", () => {
    const o = placedOrder({ amountPaisa: 20_000 });
    const done = transition(o, { source: "reconciler", status: "success", at: 5 }).order;
    expect(done.wallet?.source).toBe("inferred");
    const books = bookingsOf(o, done);
    expect(books).toHaveLength(1);
    expect(books[0]).toMatchObject({ id: `order:${o.reference}:float`, amountPaisa: 20_000 });
    expect(books[0]?.reason).toMatch(/inferred/);
    // A failure infers nothing.
    expect(transition(o, { source: "reconciler", status: "failed", at: 5 }).order.wallet).toBe(
      undefined,
    );
  });

  it("is replaced by the aggregator's figures, the difference booked once, either way", () => {
    const o = placedOrder({ amountPaisa: 20_000 });
    const done = transition(o, { source: "webhook", status: "success", at: 5 }).order;
    const wallet = {
      amountPaisa: 20_000,
      serviceChargePaisa: 0,
      instantDiscountPaisa: 500,
      debitAmountPaisa: 19_500,
      creditAvailablePaisa: 1_000_000,
      source: "execute" as const,
    };
    const late = transition(done, { source: "execute", status: "queued", at: 6, wallet }).order;
    expect(late.wallet).toEqual(wallet);
    expect(late.status).toBe("success");
    expect(bookingsOf(done, late)).toMatchObject([
      {
        id: `order:${o.reference}:float-fix`,
        kind: "adjustment",
        debit: "merchant:float",
        credit: "merchant:funding",
        amountPaisa: 500,
      },
    ]);
    // Figures already the aggregator's are never replaced again.
    const again = transition(late, {
      source: "execute",
      status: "queued",
      at: 7,
      wallet: { ...wallet, debitAmountPaisa: 1 },
    });
    expect(again.changed).toBe(false);
  });

  it("is shown to admins as inferred, in the wallet's Nepal rupees", () => {
    const o = india({ amountPaisa: 10_000 });
    const done = transition(o, { source: "reconciler", status: "success", at: 5 }).order;
    const text = orderStatusText(t, done, "admin");
    expect(text).toContain("Wallet: Rs 160 debited");
    expect(text).toContain(t("status-wallet-inferred"));
    expect(orderStatusText(t, done, "customer")).not.toContain("inferred");
  });
});
