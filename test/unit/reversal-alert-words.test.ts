import { describe, expect, it } from "vitest";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { contradictedAlertText } from "../../src/bot/order-texts.ts";
import type { Order } from "../../src/orders/model.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * The admins' alert for a reversal word on a success (orders/reversal.ts, final-order.ts): it
 * says what the aggregator answered ("refunded", "reversed": its own word), never that it
 * answered "failed" (session 32: the alert used to word it as the aggregator's "failed"), in
 * English, Nepali and Hindi; a settled success names the admin who settled it.
 */

const i18n = createI18n(() => "en");
const LOCALES = ["en", "ne", "hi"] as const;

const success = (over: Partial<Order> = {}): Order =>
  placedOrder({ reference: "1700000000091", status: "success", ...over });

const settled: NonNullable<Order["settled"]> = {
  by: 7301,
  reason: "operator confirms the top-up",
  aggregator: "status pending",
  admins: [7301, 7302],
  at: 1,
};

describe("the reversal alert's words", () => {
  for (const locale of LOCALES) {
    const t = translator(i18n, locale);
    const failedWords = contradictedAlertText(t, success(), "failed");

    it(`${locale}: the aggregator's own word, not "failed", on a reported success`, () => {
      for (const word of ["refunded", "Rolled_Back"]) {
        const text = contradictedAlertText(t, success(), "failed", word);
        expect(text).toContain(`"${word}"`);
        expect(text).toContain("1700000000091");
        expect(text).not.toBe(failedWords);
        expect(text).not.toContain("7301");
      }
    });

    it(`${locale}: on a success an admin settled, the word and the admin who settled it`, () => {
      const text = contradictedAlertText(t, success({ settled }), "failed", "reversed");
      expect(text).toContain('"reversed"');
      expect(text).toContain("7301");
      expect(text).not.toContain("7,301");
      expect(text).not.toBe(contradictedAlertText(t, success(), "failed", "reversed"));
    });
  }

  it("in English, the words say it was reversed and the customer may be owed a refund", () => {
    const t = translator(i18n, "en");
    const text = contradictedAlertText(t, success(), "failed", "refunded");
    expect(text).toContain('the aggregator now answers "refunded": it reversed the recharge');
    expect(text).toContain("may be owed a refund");
    expect(text).not.toContain("says it failed");
    expect(contradictedAlertText(t, success({ settled }), "failed", "refunded")).toContain(
      "was settled as successful by admin 7301",
    );
  });
});
