import { describe, expect, it } from "vitest";
import { balanceText } from "../../conversations/balance/command.ts";
import { renderHistory } from "../../conversations/history/render.ts";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { formatMoney } from "../../src/money.ts";
import type { Order } from "../../src/orders/model.ts";

/**
 * Words about money a customer reads (s21 review): a reversal that took money away never reads
 * as money given back (Nepali said "the merchant returned" it), and /history never says an India
 * order's rupees came "from your balance" when the failure gave them back.
 */

const i18n = createI18n(() => "en");
const t = (locale: string) => translator(i18n, locale);
const AT = Date.UTC(2025, 2, 12, 8, 20);

describe("a reversal in /balance's movements", () => {
  const result = {
    kind: "customer" as const,
    phone: null,
    availablePaisa: 0,
    heldPaisa: 0,
    complete: true,
    movements: [
      { at: AT, kind: "reversal" as const, direction: "out" as const, amountPaisa: 50_000 },
    ],
  };

  // Fails on the locales before: no minus sign anywhere, and Nepali "फिर्ता गर्नुभयो" (returned).
  it.each(["en", "ne", "hi"])("in %s reads as money taken away", (locale) => {
    const text = balanceText(t(locale), result);
    expect(text).toContain(`−${formatMoney(50_000, { locale })}`);
    expect(text).not.toContain("फिर्ता गर्नुभयो");
  });

  it("and the Nepali notice of a reversed cash-in says the merchant took it back", () => {
    const notice = t("ne")("reverse-notice", {
      ref: "R1",
      amount: "रु 100",
      reason: "x",
      balance: "रु 0",
    });
    expect(notice).toContain("फिर्ता लिनुभयो");
  });
});

describe("an India order's Nepal rupees in /history", () => {
  const india = (status: Order["status"]) =>
    ({
      reference: "1741767600002",
      idempotencyKey: "k",
      userId: 1,
      chatId: 1,
      locale: "en",
      category: "india",
      region: "in",
      operatorId: 1,
      operatorTypeId: 1,
      operatorName: "Jio",
      connectionNo: "9876543210",
      amountPaisa: 23_900,
      status,
      details: { circleId: "5" },
      history: [],
      createdAt: AT,
      updatedAt: AT,
      version: 1,
      holdId: "h1",
      price: { amountPaisa: 23_900, feePaisa: 0, discountPaisa: 0, totalPaisa: 23_900 },
      exchange: { rateE4: 16_000, feePaisa: 0, totalPaisa: 38_240 },
    }) as Order;
  const shown = (locale: string, o: Order) =>
    renderHistory(t(locale), { view: { page: 0 }, orders: [o], hasNext: false, now: AT }).text;

  // Fails on the code before: a failed order read "(Rs 382.40 from your balance)".
  it("failed: held, then returned to the balance, never 'from your balance'", () => {
    const en = shown("en", india("failed"));
    expect(en).toContain("Total: ₹239 (Rs 382.40 held, then returned to your balance)");
    expect(en).not.toContain("from your balance");
    expect(shown("ne", india("failed"))).toContain("फिर्ता गरियो");
    expect(shown("hi", india("failed"))).toContain("वापस कर दिए गए");
  });

  it("under way: held; successful: from the balance", () => {
    expect(shown("en", india("pending"))).toContain("(Rs 382.40 held from your balance)");
    expect(shown("en", india("success"))).toContain("(Rs 382.40 from your balance)");
  });

  // Fails on the code before: "(Rs 382.40 from your balance)" though no balance held anything.
  // Words about a balance follow the hold, not the charge (review s21, finding 11).
  it("without a hold: the Rs figure only, in every status and language", () => {
    for (const status of ["pending", "success", "failed"] as const) {
      const { holdId: _, ...o } = india(status);
      expect(shown("en", o as Order)).toContain("Total: ₹239 (Rs 382.40) · Ref:");
      expect(shown("ne", o as Order)).toContain("(रु 382.40) ·");
      expect(shown("hi", o as Order)).toContain("(रु 382.40) ·");
    }
  });
});
