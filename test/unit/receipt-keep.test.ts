import { describe, expect, it } from "vitest";
import { formatOrderTime } from "../../src/bot/format.ts";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { finalText, receiptText, statusText } from "../../src/bot/order-texts.ts";
import { subscriberName } from "../../src/categories/dth/flow.ts";
import type { Order } from "../../src/orders/model.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * Receipts to keep (issue 30): fee and discount lines only when not zero; what identifies the
 * account (office, SC number, holder, subscriber) on the receipt and the push; one date format
 * per language with the order's zone named, the same in /status; in Nepali the Bikram Sambat date
 * beside the Gregorian and one digit system.
 */

const i18n = createI18n(() => "en");
const t = (locale: string) => translator(i18n, locale);

// 2026-11-22 08:00 UTC: 13:45 in Kathmandu, 13:30 in Kolkata; 6 Mangsir 2083 in Nepal.
const AT = Date.UTC(2026, 10, 22, 8, 0);

function prepaid(over: Partial<Order> = {}): Order {
  return placedOrder({
    reference: "1700000000088",
    amountPaisa: 15_000,
    price: { amountPaisa: 15_000, feePaisa: 0, discountPaisa: 0, totalPaisa: 15_000 },
    holdId: "order:1700000000088",
    createdAt: AT,
    balanceAfterPaisa: 85_000,
    ...over,
  } as Partial<Order>);
}

describe("fee and discount only when not zero", () => {
  it("leaves both out of the receipt and the push when zero, in every language", () => {
    const o = prepaid({ status: "success" });
    for (const locale of ["en", "ne", "hi"]) {
      const fee = t(locale)("receipt-line-fee", { fee: "X" }).split(":")[0]!;
      const discount = t(locale)("receipt-line-discount", { discount: "X" }).split(":")[0]!;
      for (const text of [
        finalText(t(locale), o),
        receiptText(t(locale), { ...o, status: "pending" }),
      ]) {
        expect(text).not.toContain(`${fee}:`);
        expect(text).not.toContain(`${discount}:`);
      }
    }
    expect(finalText(t("en"), o)).toContain("Total paid: Rs 150");
  });

  it("shows a fee without a zero discount, and a discount without a zero fee", () => {
    const withFee = prepaid({
      status: "success",
      price: { amountPaisa: 15_000, feePaisa: 300, discountPaisa: 0, totalPaisa: 15_300 },
    });
    const text = finalText(t("en"), withFee);
    expect(text).toContain("Fee: Rs 3");
    expect(text).not.toContain("Discount");
    const withDiscount = prepaid({
      status: "success",
      price: { amountPaisa: 15_000, feePaisa: 0, discountPaisa: 100, totalPaisa: 14_900 },
    });
    const other = finalText(t("en"), withDiscount);
    expect(other).toContain("Discount: −Rs 1");
    expect(other).not.toContain("Fee");
  });
});

describe("what identifies the account", () => {
  it("an electricity bill: office, SC number and holder on the receipt and the push", () => {
    const o = prepaid({
      category: "electricity",
      operatorName: "Nepal Electricity Authority",
      connectionNo: "778899",
      details: {
        officeCode: "301",
        officeName: "Pokhara DC",
        scNo: "012.34.567",
        phone: "9841234567",
        customerName: "Sita Sharma",
        billAmountPaisa: 15_000,
      },
      status: "success",
    } as Partial<Order>);
    for (const text of [finalText(t("en"), o), receiptText(t("en"), o)]) {
      const lines = text.split("\n");
      expect(lines).toContain("Office: Pokhara DC");
      expect(lines).toContain("SC number: 012.34.567");
      expect(lines).toContain("Account holder: Sita Sharma");
      expect(lines).toContain("Nepal Electricity Authority · 778899 · Rs 150");
    }
    const ne = finalText(t("ne"), o);
    expect(ne).toContain("कार्यालय: Pokhara DC");
    expect(ne).toContain("SC नम्बर: 012.34.567");
    expect(finalText(t("hi"), o)).toContain("खाताधारक: Sita Sharma");
  });

  it("a water bill of an order placed before office names were kept shows the office code", () => {
    const o = prepaid({
      category: "water",
      operatorName: "Khanepani (Water)",
      connectionNo: "123456",
      details: { officeCode: "512", monthId: 7, customerName: "Ram Thapa" },
      status: "success",
    } as Partial<Order>);
    const lines = finalText(t("en"), o).split("\n");
    expect(lines).toContain("Office: 512");
    expect(lines).toContain("Account holder: Ram Thapa");
    expect(lines).toContain("Bill month: Kartik");
  });

  it("a TV order names the subscriber; a mobile order has no such line", () => {
    const o = prepaid({
      category: "dth",
      operatorName: "Dish Home",
      connectionNo: "DH123456",
      details: { packageId: "P1", packageName: "Basic", subscriber: "Hari Prasad" },
      status: "success",
    } as Partial<Order>);
    expect(finalText(t("en"), o).split("\n")).toContain("Subscriber: Hari Prasad");
    expect(finalText(t("en"), prepaid({ status: "success" }))).not.toMatch(
      /Office|Subscriber|holder/,
    );
  });

  it("reads the subscriber's name from the listing's first line, with or without a label", () => {
    expect(subscriberName(["Customer: Ram Bahadur", "STB No: STB0012345678"])).toBe("Ram Bahadur");
    expect(subscriberName(["Ram Bahadur Thapa", "STB: 0012345678"])).toBe("Ram Bahadur Thapa");
    expect(subscriberName(["STB No: STB0012345678"])).toBeUndefined();
    expect(subscriberName([])).toBeUndefined();
  });
});

describe("one date format, the order's zone named", () => {
  it("names the zone: NPT for Nepal orders, IST for India orders, in every language", () => {
    expect(formatOrderTime(AT, "np", "en")).toBe("22 Nov 2026, 13:45 NPT");
    expect(formatOrderTime(AT, "in", "en")).toBe("22 Nov 2026, 13:30 IST");
    expect(formatOrderTime(AT, "in", "hi")).toBe("22 नव॰ 2026, 13:30 IST");
    expect(formatOrderTime(AT, "np", "ne")).toBe("2026 नोभेम्बर 22 (वि.सं. 2083 मंसिर 6), 13:45 NPT");
  });

  it("dates the Bikram Sambat day on the order's clock: just after midnight in Nepal", () => {
    // 2026-11-22 18:20 UTC is 00:05 on 23 Nov in Kathmandu, still 23:50 on 22 Nov in Kolkata.
    const late = Date.UTC(2026, 10, 22, 18, 20);
    expect(formatOrderTime(late, "np", "ne")).toBe("2026 नोभेम्बर 23 (वि.सं. 2083 मंसिर 7), 00:05 NPT");
    expect(formatOrderTime(late, "in", "ne")).toBe("2026 नोभेम्बर 22 (वि.सं. 2083 मंसिर 6), 23:50 IST");
  });

  it("/status shows an India order in India time, as its receipt does", () => {
    const o = prepaid({
      region: "in",
      category: "india",
      operatorName: "Airtel Prepaid",
      connectionNo: "9810012345",
      details: { circleId: "5" },
      status: "success",
    } as Partial<Order>);
    expect(statusText(t("en"), o)).toContain("Placed: 22 Nov 2026, 13:30 IST");
    expect(finalText(t("en"), o)).toContain("Date: 22 Nov 2026, 13:30 IST");
    const ne = statusText(t("ne"), { ...o, region: "np", locale: "ne" });
    expect(ne).toContain("2026 नोभेम्बर 22 (वि.सं. 2083 मंसिर 6), 13:45 NPT");
  });
});
