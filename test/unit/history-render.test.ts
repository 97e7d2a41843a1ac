import { describe, expect, it } from "vitest";
import { renderHistory } from "../../conversations/history/render.ts";
import {
  historySearchButton,
  historyViewButton,
  repeatButton,
} from "../../src/bot/callback-data.ts";
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

/** A page drawn on 2025-03-12 (months offered: Mar, Feb, Jan 2025). */
const page = (
  orders: Order[],
  p: number,
  hasNext: boolean,
  view: { month?: string; number?: string } = {},
) => ({ view: { page: p, ...view }, orders, hasNext, now: AT });
const labels = (kb: { inline_keyboard: Array<Array<{ text: string }>> } | undefined) =>
  (kb?.inline_keyboard ?? []).map((row) => row.map((b) => b.text));
const data = (kb: { inline_keyboard: Array<Array<object>> } | undefined) =>
  (kb?.inline_keyboard ?? []).flat().map((b) => ("callback_data" in b ? b.callback_data : ""));

describe("history page rendering", () => {
  it("shows Nepal orders in Nepal time and India orders in India time, each zone named, with category and status", () => {
    const shown = renderHistory(t("en"), page([nepal, india], 0, false));
    expect(shown.text).toBe(
      [
        "Your last orders:",
        "12 Mar 2025, 14:05 NPT · 📱 Mobile top-up\nNTC Prepaid · 9841234567 · ✅ successful\nTotal: Rs 100 · Ref: 1741767600001",
        "12 Mar 2025, 13:50 IST · 🇮🇳 India recharge\nJio · 9876543210 · ❌ failed\nTotal: ₹239 · Ref: 1741767600002",
      ].join("\n\n"),
    );
    expect(labels(shown.keyboard)).toEqual([
      ["🔁 Repeat 9841234567 · Rs 100"],
      ["🔁 Repeat 9876543210 · ₹239"],
      ["📅 Mar 2025", "📅 Feb 2025", "📅 Jan 2025"],
      ["🔎 Search a number"],
    ]);
    // The reference is in the data, not in the label.
    expect(data(shown.keyboard)).toEqual([
      repeatButton.build(nepal.reference),
      repeatButton.build(india.reference),
      historyViewButton.build("0:m2025-03"),
      historyViewButton.build("0:m2025-02"),
      historyViewButton.build("0:m2025-01"),
      historySearchButton.data,
    ]);
  });

  it("offers Previous and Next only where there is such a page", () => {
    const nav = (p: number, hasNext: boolean, view = {}) =>
      (renderHistory(t("en"), page([nepal], p, hasNext, view)).keyboard?.inline_keyboard[1] ?? [])
        .filter((b) => /Previous|Next/.test(b.text))
        .map((b) => [b.text, "callback_data" in b ? b.callback_data : ""]);
    expect(nav(0, true)).toEqual([["Next ➡️", historyViewButton.build("1")]]);
    expect(nav(1, true)).toEqual([
      ["⬅️ Previous", historyViewButton.build("0")],
      ["Next ➡️", historyViewButton.build("2")],
    ]);
    expect(nav(2, false)).toEqual([["⬅️ Previous", historyViewButton.build("1")]]);
    expect(nav(0, false)).toEqual([]);
    // A filter is kept by the page buttons.
    expect(nav(1, true, { month: "2025-02" })).toEqual([
      ["⬅️ Previous", historyViewButton.build("0:m2025-02")],
      ["Next ➡️", historyViewButton.build("2:m2025-02")],
    ]);
    expect(nav(0, true, { number: "9841234567" })).toEqual([
      ["Next ➡️", historyViewButton.build("1:n9841234567")],
    ]);
  });

  it("speaks Hindi on a 24-hour clock (no English am/pm), and leaves a seam for nicknames", () => {
    const shown = renderHistory(t("hi"), page([nepal], 1, false), (o) =>
      o.connectionNo === "9841234567" ? "Aama" : o.connectionNo,
    );
    expect(shown.text).toBe(
      [
        "आपके पिछले ऑर्डर (पेज 2):",
        "12 मार्च 2025, 14:05 NPT · 📱 मोबाइल टॉप-अप\nNTC Prepaid · Aama · ✅ सफल\nकुल: रु 100 · रेफ़रेंस: 1741767600001",
      ].join("\n\n"),
    );
    expect(labels(shown.keyboard).slice(0, 2)).toEqual([["🔁 दोहराएँ Aama · रु 100"], ["⬅️ पिछला"]]);
  });

  it("says so when there is no order", () => {
    expect(renderHistory(t("en"), page([], 0, false))).toEqual({
      text: "You have no orders yet. Send /recharge to make one.",
    });
    const month = renderHistory(t("en"), page([], 0, false, { month: "2025-01" }));
    expect(month.text).toBe("You have no orders in January 2025.");
    expect(labels(month.keyboard)).toEqual([
      ["📅 Mar 2025", "📅 Feb 2025", "📋 All orders"],
      ["🔎 Search a number"],
    ]);
  });

  it("shows the total paid with fee and discount, and an India order's rupees the balance paid", () => {
    const priced = order({
      price: { amountPaisa: 10_000, feePaisa: 500, discountPaisa: 0, totalPaisa: 10_500 },
    } as Partial<Order>);
    const inr = {
      ...india,
      status: "success",
      price: { amountPaisa: 23_900, feePaisa: 0, discountPaisa: 0, totalPaisa: 23_900 },
      exchange: { rateE4: 16_000, feePaisa: 0, totalPaisa: 38_240 },
      // Prepaid: the balance held it (a charge in Rs comes with a hold).
      holdId: "h2",
    } as Order;
    const en = renderHistory(t("en"), page([priced, inr], 0, false)).text.split("\n\n");
    expect(en[1]).toContain("Total: Rs 105 · Ref: 1741767600001");
    expect(en[2]).toContain("Total: ₹239 (Rs 382.40 from your balance) · Ref: 1741767600002");
    const ne = renderHistory(t("ne"), page([inr], 0, false, { number: "9876543210" })).text;
    expect(ne).toContain("9876543210 का तपाईंका अर्डरहरू:");
    expect(ne).toContain("(तपाईंको ब्यालेन्सबाट रु 382.40)");
  });

  it("says a failed order's balance money was returned, in Nepal rupees too (review s32-receipts 2)", () => {
    const price = { amountPaisa: 10_000, feePaisa: 500, discountPaisa: 0, totalPaisa: 10_500 };
    const held = order({ status: "failed", price, holdId: "h1" } as Partial<Order>);
    const en = renderHistory(t("en"), page([held], 0, false)).text;
    expect(en).toContain("Total: Rs 105 (returned to your balance) · Ref: 1741767600001");
    const ne = renderHistory(t("ne"), page([held], 0, false)).text;
    expect(ne).toContain("(तपाईंको ब्यालेन्समा फिर्ता गरियो)");
    // Nobody's balance held it (staff mode), or it succeeded: the bare total, as before.
    const staff = order({ status: "failed", price } as Partial<Order>);
    expect(renderHistory(t("en"), page([staff], 0, false)).text).toContain(
      "Total: Rs 105 · Ref: 1741767600001",
    );
    const paid = order({ status: "success", price, holdId: "h1" } as Partial<Order>);
    expect(renderHistory(t("en"), page([paid], 0, false)).text).toContain(
      "Total: Rs 105 · Ref: 1741767600001",
    );
  });
});
