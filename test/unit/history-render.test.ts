import { describe, expect, it } from "vitest";
import { renderHistory } from "../../conversations/history/command.ts";
import { historyPageButton, repeatButton } from "../../src/bot/callback-data.ts";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import type { Order } from "../../src/orders/model.ts";

/** /history's page as text and buttons, from fixed orders (times pinned to the minute). */

const i18n = createI18n(() => "en");
const t = (locale: string) => translator(i18n, locale);

// 2025-03-12 08:20 UTC: 14:05 in Kathmandu (+5:45), 13:50 in Kolkata (+5:30).
const AT = Date.UTC(2025, 2, 12, 8, 20);

function order(fields: Partial<Order>): Order {
  return {
    reference: "1741767600001",
    idempotencyKey: "k",
    userId: 1,
    chatId: 1,
    locale: "en",
    category: "mobile",
    region: "np",
    operatorId: 1,
    operatorTypeId: 1,
    operatorName: "NTC Prepaid",
    connectionNo: "9841234567",
    amountPaisa: 10_000,
    status: "success",
    details: {},
    history: [],
    createdAt: AT,
    updatedAt: AT,
    version: 1,
    ...fields,
  } as Order;
}

const nepal = order({});
const india = order({
  reference: "1741767600002",
  category: "india",
  region: "in",
  operatorName: "Jio",
  connectionNo: "9876543210",
  amountPaisa: 23_900,
  status: "failed",
  details: { circleId: "5" },
});

describe("history page rendering", () => {
  it("shows Nepal orders in Nepal time and India orders in India time, each zone named, with category and status", () => {
    const page = renderHistory(t("en"), "en", { orders: [nepal, india], page: 0, hasNext: false });
    expect(page.text).toBe(
      [
        "Your last orders:",
        "12 Mar 2025, 14:05 NPT · 📱 Mobile top-up\nNTC Prepaid · 9841234567 · Rs 100 · ✅ successful",
        "12 Mar 2025, 13:50 IST · 🇮🇳 India recharge\nJio · 9876543210 · ₹239 · ❌ failed",
      ].join("\n\n"),
    );
    const buttons = page.keyboard!.inline_keyboard.flat();
    expect(buttons.map((b) => b.text)).toEqual([
      "🔁 Repeat 9841234567 · Rs 100",
      "🔁 Repeat 9876543210 · ₹239",
    ]);
    // The reference is in the data, not in the label.
    expect(buttons.map((b) => ("callback_data" in b ? b.callback_data : ""))).toEqual([
      repeatButton.build(nepal.reference),
      repeatButton.build(india.reference),
    ]);
  });

  it("offers Previous and Next only where there is such a page", () => {
    const nav = (page: number, hasNext: boolean) =>
      renderHistory(t("en"), "en", { orders: [nepal], page, hasNext })
        .keyboard!.inline_keyboard.flat()
        .slice(1)
        .map((b) => [b.text, "callback_data" in b ? b.callback_data : ""]);
    expect(nav(0, true)).toEqual([["Next ➡️", historyPageButton.build(1)]]);
    expect(nav(1, true)).toEqual([
      ["⬅️ Previous", historyPageButton.build(0)],
      ["Next ➡️", historyPageButton.build(2)],
    ]);
    expect(nav(2, false)).toEqual([["⬅️ Previous", historyPageButton.build(1)]]);
    expect(nav(0, false)).toEqual([]);
  });

  it("speaks Hindi on a 24-hour clock (no English am/pm), and leaves a seam for nicknames", () => {
    const page = renderHistory(t("hi"), "hi", { orders: [nepal], page: 1, hasNext: false }, (o) =>
      o.connectionNo === "9841234567" ? "Aama" : o.connectionNo,
    );
    expect(page.text).toBe(
      [
        "आपके पिछले ऑर्डर (पेज 2):",
        "12 मार्च 2025, 14:05 NPT · 📱 मोबाइल टॉप-अप\nNTC Prepaid · Aama · रु 100 · ✅ सफल",
      ].join("\n\n"),
    );
    expect(page.keyboard!.inline_keyboard.flat().map((b) => b.text)).toEqual([
      "🔁 दोहराएँ Aama · रु 100",
      "⬅️ पिछला",
    ]);
  });

  it("says so when there is no order", () => {
    const page = renderHistory(t("en"), "en", { orders: [], page: 0, hasNext: false });
    expect(page).toEqual({ text: "You have no orders yet. Send /recharge to make one." });
  });
});
