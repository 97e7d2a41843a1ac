import { describe, expect, it } from "vitest";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { notificationRender } from "../../src/bot/notification-render.ts";
import { contradictedAlertText } from "../../src/bot/order-texts.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { refundableOf } from "../../src/complaints/index.ts";
import { notificationSchema, type Order } from "../../src/orders/model.ts";
import { withRefund } from "../../src/orders/refund-told.ts";
import { createChatI18n } from "../../src/system/bot.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * A contradiction's alert on an order a complaint already refunded (review s33-rvcomp 5): it says
 * the refund was paid (the complaint, the amount), in every alert of the kind and in English,
 * Nepali and Hindi, instead of "the customer may be owed a refund"; an alert written by the
 * previous version (no refund in it) is still read and says what it said. The complaint's refund
 * screens see the aggregator's reversal word and time, an admin's settlement's too.
 */

const i18n = createI18n(() => "en");
const LOCALES = ["en", "ne", "hi"] as const;
const REFUND = { complaint: "C100007", paisa: 10_000, at: Date.UTC(2026, 10, 20, 6, 0) };

const success = (over: Partial<Order> = {}): Order =>
  placedOrder({ reference: "1700000000092", status: "success", ...over });

const settled: NonNullable<Order["settled"]> = {
  by: 7301,
  reason: "operator confirms the top-up",
  aggregator: "status pending",
  admins: [7301, 7302],
  at: 1,
};

describe("a reversal's alert when a complaint refund was already booked", () => {
  for (const locale of LOCALES) {
    const t = translator(i18n, locale);
    it(`${locale}: each alert says the refund (complaint, amount), not that one may be owed`, () => {
      const owed = t("notify-admin-refund-owed");
      const cases: [Order, string | undefined][] = [
        [success(), undefined],
        [success(), "refunded"],
        [success({ settled }), "reversed"],
      ];
      for (const [order, word] of cases) {
        const before = contradictedAlertText(t, order, "failed", word);
        expect(before).toContain(owed);
        const text = contradictedAlertText(t, order, "failed", word, REFUND);
        expect(text).toContain("C100007");
        expect(text).toMatch(/100/);
        expect(text).not.toContain(owed);
        expect(text).not.toMatch(/\{|\}/);
      }
    });
  }

  it("in English: the amount, the complaint and 'do not refund that again'", () => {
    const t = translator(i18n, "en");
    const text = contradictedAlertText(t, success(), "failed", "refunded", REFUND);
    expect(text).toContain(
      "Complaint C100007 already refunded Rs 100 of it to the customer (20 Nov 2026",
    );
    expect(text).toContain("do not refund that again");
  });

  it("the refund rides in the alert's payload; an older alert without it is read and says 'may be owed'", () => {
    const base = {
      kind: "admin_alert" as const,
      reference: "1700000000092",
      status: "success" as const,
      chatId: 7301,
      at: 5,
      contradicted: "failed" as const,
    };
    const [told] = withRefund([base], REFUND);
    const parsed = notificationSchema.parse(JSON.parse(JSON.stringify(told)));
    expect(parsed).toMatchObject({ refund: REFUND });
    const render = notificationRender(createChatI18n(CATEGORY_MODULES));
    const withIt = render(parsed as typeof base, success()).text;
    expect(withIt).toContain("Complaint C100007 already refunded Rs 100");
    const old = notificationSchema.parse(base);
    expect(render(old as typeof base, success()).text).toContain(
      "The customer may be owed a refund.",
    );
    // A stuck alert or a settlement's other alerts are not touched.
    const stuck = { ...base, contradicted: undefined };
    expect(withRefund([stuck], REFUND)).toEqual([stuck]);
  });

  it("a settlement's contradiction names the refund in its note", () => {
    const note = {
      kind: "admin_alert" as const,
      topic: "settle_contradicted" as const,
      reference: "1700000000092",
      status: "success" as const,
      chatId: 7301,
      at: 5,
      note: "Order 1700000000092: the aggregator says failed.",
    };
    const [told] = withRefund([note], REFUND);
    expect(told).toMatchObject({
      note: "Order 1700000000092: the aggregator says failed. Complaint C100007 already refunded Rs 100 of it to the customer: do not refund that again.",
    });
  });
});

describe("a refund screen sees the aggregator's reversal", () => {
  const paid = { holdId: "h1", price: { totalPaisa: 10_000 } } as unknown as Partial<Order>;
  it("an unsettled success the aggregator reversed: its word and time", () => {
    const o = success({
      ...paid,
      contradicted: { at: 42, said: "failed", source: "status", word: "refunded" },
    });
    expect(refundableOf(o)).toMatchObject({ ok: true, reversed: { word: "refunded", at: 42 } });
  });
  it("a settled success reversed: its word (or 'failed' from an older version) and time", () => {
    const reversed = success({
      ...paid,
      settled: { ...settled, contradictedAt: 43, contradictedWord: "reversed" },
    });
    expect(refundableOf(reversed)).toMatchObject({ reversed: { word: "reversed", at: 43 } });
    const older = success({ ...paid, settled: { ...settled, contradictedAt: 44 } });
    expect(refundableOf(older)).toMatchObject({ reversed: { word: "failed", at: 44 } });
  });
  it("no reversal: nothing shown", () => {
    const r = refundableOf(success(paid));
    expect(r.ok && r.reversed).toBeFalsy();
  });
});
