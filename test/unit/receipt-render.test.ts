import { describe, expect, it } from "vitest";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { finalText, receiptText } from "../../src/bot/order-texts.ts";
import type { Order } from "../../src/orders/model.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * Receipts and final pushes (issue 15): reference, the aggregator's transaction id when known,
 * date and time in the order's country with its zone's name, category, operator, number, package
 * or bill month, amount, fee and discount (when not zero), total paid and the balance after; a failure says what was returned. In
 * English, Nepali and Hindi; Nepal orders in रु/Rs, India orders in ₹, the balance always in the
 * Nepal wallet's rupees.
 */

const i18n = createI18n(() => "en");
const t = (locale: string) => translator(i18n, locale);

// 2026-11-22 08:00 UTC: 13:45 in Kathmandu, 13:30 in Kolkata.
const AT = Date.UTC(2026, 10, 22, 8, 0);

function prepaid(over: Partial<Order> = {}): Order {
  return placedOrder({
    reference: "1700000000077",
    amountPaisa: 15_000,
    price: { amountPaisa: 15_000, feePaisa: 500, discountPaisa: 200, totalPaisa: 15_300 },
    holdId: "order:1700000000077",
    createdAt: AT,
    ...over,
  });
}

describe("the final push and the receipt", () => {
  it("a success in English: every line, the money of the schedule and the balance after", () => {
    const o = prepaid({ status: "success", transactionId: "TX-991" });
    expect(finalText(t("en"), { ...o, balanceAfterPaisa: 84_700 }).split("\n")).toEqual([
      "✅ Order 1700000000077 succeeded.",
      "NTC Prepaid · 9841234567 · Rs 150",
      "Service: 📱 Mobile top-up",
      "Fee: Rs 5",
      "Discount: −Rs 2",
      "Total paid: Rs 153",
      "Balance after: Rs 847",
      "Transaction id: TX-991",
      "Date: 22 Nov 2026, 13:45 NPT",
    ]);
  });

  it("a failure says how much was returned to the balance, and why", () => {
    const o = prepaid({ status: "failed", providerMessage: "Number barred" });
    const text = finalText(t("en"), { ...o, balanceAfterPaisa: 100_000 });
    expect(text).toContain(
      "❌ Order 1700000000077 failed.\nRs 153 has been returned to your balance.",
    );
    expect(text).toContain("Total: Rs 153");
    expect(text).not.toContain("Total paid");
    expect(text).toContain("Reason: Number barred");
    expect(text).not.toContain("Transaction id");
  });

  it("a refusal for the merchant's float never shows the aggregator's words", () => {
    const o = prepaid({
      status: "failed",
      floatShort: true,
      providerMessage: "Insufficient balance: Rs 150.00 needed, Rs 10.00 available",
    });
    const text = finalText(t("en"), o);
    expect(text).toContain("Reason: the service is briefly unavailable");
    expect(text).not.toMatch(/insufficient|needed|Rs 10\b/i);
    const ne = finalText(t("ne"), o);
    expect(ne).toContain("सेवा केही समयका लागि उपलब्ध छैन");
    expect(ne).not.toMatch(/Insufficient/);
  });

  it("in Nepali: the same lines in Nepali, रु, Nepal time", () => {
    const o = prepaid({ status: "success", transactionId: "TX-991", locale: "ne" });
    const text = finalText(t("ne"), { ...o, balanceAfterPaisa: 84_700 });
    expect(text).toContain("✅ अर्डर 1700000000077 सफल भयो।");
    expect(text).toContain("NTC Prepaid · 9841234567 · रु 150");
    expect(text).toContain("शुल्क: रु 5");
    expect(text).toContain("छुट: −रु 2");
    expect(text).toContain("जम्मा तिरेको: रु 153");
    expect(text).toContain("पछिको मौज्दात: रु 847");
    expect(text).toContain("कारोबार आईडी: TX-991");
    // Latin digits like the rest of the message; the Bikram Sambat date beside the Gregorian.
    expect(text).toContain("मिति: 2026 नोभेम्बर 22 (वि.सं. 2083 मंसिर 6), 13:45 NPT");
    expect(text).not.toMatch(/[०-९]/);
  });

  it("an India order in Hindi: ₹ for the order, the Nepal wallet's balance never as ₹", () => {
    const o = prepaid({
      status: "success",
      region: "in",
      category: "india",
      operatorName: "Jio Prepaid",
      connectionNo: "9876543210",
      details: { circleId: "5", packageName: "28 days" },
      locale: "hi",
    } as Partial<Order>);
    const text = finalText(t("hi"), { ...o, balanceAfterPaisa: 84_700 });
    expect(text).toContain("Jio Prepaid · 9876543210 · ₹150");
    expect(text).toContain("पैक: 28 days");
    expect(text).toContain("कुल भुगतान: ₹153");
    expect(text).toContain("बाद में बैलेंस: रु 847");
    expect(text).not.toMatch(/बैलेंस: ₹/);
    expect(text).toContain("तारीख: 22 नव॰ 2026, 13:30 IST");
  });

  /** ₹100 + ₹1.50 fee, paid from the Nepal-rupee balance at 1.6: Rs 162.40 held. */
  function indiaPrepaid(over: Partial<Order> = {}): Order {
    return prepaid({
      region: "in",
      category: "india",
      operatorName: "Airtel Prepaid",
      connectionNo: "9810012345",
      amountPaisa: 10_000,
      price: { amountPaisa: 10_000, feePaisa: 150, discountPaisa: 0, totalPaisa: 10_150 },
      exchange: { rateE4: 16_000, totalPaisa: 16_240, feePaisa: 240 },
      details: { circleId: "5" },
      ...over,
    } as Partial<Order>);
  }

  it("an India order paid from the balance: ₹ figures, then the Rs paid and the rate", () => {
    const o = indiaPrepaid({ status: "success", transactionId: "TX-7" });
    expect(finalText(t("en"), { ...o, balanceAfterPaisa: 83_760 }).split("\n")).toEqual([
      "✅ Order 1700000000077 succeeded.",
      "Airtel Prepaid · 9810012345 · ₹100",
      "Service: 🇮🇳 India recharge",
      "Fee: ₹1.50",
      "Total: ₹101.50",
      "Paid Rs 162.40 from your balance (₹1 = Rs 1.60)",
      "Balance after: Rs 837.60",
      "Transaction id: TX-7",
      "Date: 22 Nov 2026, 13:30 IST",
    ]);
    // While under way the receipt says what is held, in Nepal rupees.
    const pending = receiptText(t("en"), { ...o, status: "pending" });
    expect(pending).toContain("Total: ₹101.50");
    expect(pending).toContain("Held from your balance: Rs 162.40 (₹1 = Rs 1.60)");
    expect(pending).not.toMatch(/Rs 101|₹162/);
  });

  it("an India order that failed: the Nepal rupees returned; in Hindi and Nepali", () => {
    const o = indiaPrepaid({ status: "failed", providerMessage: "Operator down", locale: "hi" });
    const hi = finalText(t("hi"), { ...o, balanceAfterPaisa: 100_000 });
    expect(hi).toContain("रु 162.40 आपके बैलेंस में वापस कर दिए गए।");
    expect(hi).toContain("कुल: ₹101.50");
    expect(hi).not.toMatch(/₹162|रु 101/);
    const ne = finalText(t("ne"), { ...o, status: "success", locale: "ne", balanceAfterPaisa: 0 });
    expect(ne).toContain("मौज्दातबाट रु 162.40 तिरियो (₹1 = रु 1.60)");
    expect(ne).toContain("पछिको मौज्दात: रु 0");
  });

  it("a water bill shows its month; open mode shows no fee or total and 'nothing was charged'", () => {
    const water = placedOrder({
      category: "water",
      operatorName: "Khanepani (Water)",
      connectionNo: "123456",
      details: { officeCode: "KTM", monthId: 2 },
      status: "failed",
      createdAt: AT,
    } as Partial<Order>);
    const text = finalText(t("en"), water);
    expect(text).toContain("Bill month: Jestha");
    expect(text).toContain("Nothing was charged.");
    expect(text).not.toMatch(/Fee|Total|Balance after/);
    const receipt = receiptText(t("en"), { ...water, status: "pending" });
    expect(receipt).toContain("🧾 Order 1700000000001");
    expect(receipt).toContain("Status: ⏳ with the operator");
  });

  it("words queued and pending alike on a receipt, in every locale (the move is not sent)", () => {
    const o = placedOrder({ reference: "1700000000002", createdAt: AT, transactionId: "T1" });
    for (const locale of ["en", "hi", "ne"]) {
      const queued = receiptText(t(locale), { ...o, status: "queued" });
      expect(receiptText(t(locale), { ...o, status: "pending" })).toBe(queued);
      // Still not final, and still unlike every other state's receipt.
      expect(queued).toContain(t(locale)("receipt-will-follow"));
      for (const other of ["placed", "submitting", "unknown", "success", "failed"] as const)
        expect(receiptText(t(locale), { ...o, status: other })).not.toBe(queued);
    }
  });
});
