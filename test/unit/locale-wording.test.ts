import { describe, expect, it } from "vitest";
import { booksText } from "../../conversations/books/command.ts";
import type { BooksReport } from "../../src/books/index.ts";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { failureReason, finalText, stuckAlertText } from "../../src/bot/order-texts.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { NOT_EXECUTED_MESSAGE } from "../../src/orders/reconciler.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * Issue 30's wording where the text is static: a count of one is singular ("1 account", "1 order",
 * "1 minute", "1 digit"), an operator's name never follows an article chosen for another name,
 * and the reconciler's "The provider never received this order" reaches staff only: a customer
 * reads that the order did not go through, in their language.
 */

const i18n = createI18n(
  () => "en",
  CATEGORY_MODULES.flatMap((m) => (m.localesDir ? [m.localesDir] : [])),
);
const t = (locale: string) => translator(i18n, locale);

function report(count: number): BooksReport {
  return {
    at: Date.UTC(2026, 10, 22, 8, 0),
    balanced: false,
    postedSumPaisa: 0,
    pendingSumPaisa: 0,
    problems: count,
    ledgerProblems: { differences: count, belowZero: 0, pendingProblems: 0 },
    customers: { accounts: count, balancePaisa: 10_000, heldPaisa: 0 },
    agents: { accounts: count, balancePaisa: 10_000, heldPaisa: 0 },
    feeIncomePaisa: 0,
    complaintRefunds: {
      refunds: 0,
      paisa: 0,
      feePaisa: 0,
      orderUnread: { refunds: 0, paisa: 0 },
      outOfMargin: { refunds: 0, paisa: 0 },
    },
    margin: { orders: count, marginPaisa: 100, commissionReportedPaisa: 0 },
    inferredDebits: { orders: count, paisa: 100 },
    lastCheck: {
      at: Date.UTC(2026, 10, 22, 8, 0),
      verdict: "deferred",
      unknownDebits: count,
    } as BooksReport["lastCheck"],
    raised: { drift: false, unbalanced: false, noVerdict: false, lowFloat: false },
    lowFloatPaisa: 0,
    float: {
      booksPaisa: 0,
      inFlightPaisa: 0,
      unknownDebits: count,
      unknownBoundPaisa: 0,
      openingBooked: true,
      expectedPaisa: 0,
      reportedPaisa: 0,
      driftPaisa: 0,
      tolerancePaisa: 0,
      withinTolerance: true,
    },
  };
}

describe("counts in the admins' /books", () => {
  it("say one account, one order and one problem in the singular", () => {
    const text = booksText(t("en"), report(1));
    expect(text).toContain("; 1 account)");
    expect(text).toContain("Agents' balances, posted (incl. held): Rs 100 (1 account)");
    expect(text).toContain("on 1 order (");
    expect(text).toContain("was lost): 1 order, Rs 1");
    expect(text).toContain("1 problem. Check");
    expect(text).toContain("the debit of 1 order was not known");
    expect(text).not.toMatch(/\b1 (accounts|orders|problems)\b/);
  });

  it("and more than one in the plural", () => {
    const text = booksText(t("en"), report(3));
    expect(text).toContain("(3 accounts)");
    expect(text).toContain("on 3 orders (");
    expect(text).toContain("3 problems. Check");
  });

  it("in Hindi: one खाता, more खाते", () => {
    expect(booksText(t("hi"), report(1))).toMatch(/\(1 खाता\)/);
    expect(booksText(t("hi"), report(2))).toMatch(/\(2 खाते\)/);
  });
});

describe("other counts of one", () => {
  it("an order stuck one minute, and a typed number of one digit", () => {
    const o = placedOrder({ reference: "1700000000077", createdAt: 0 });
    expect(stuckAlertText(t("en"), o, 60_000)).toContain("after 1 minute.");
    expect(stuckAlertText(t("en"), o, 5 * 60_000)).toContain("after 5 minutes.");
    expect(t("en")("err-length", { expected: 10, actual: 1 })).toBe(
      "That has 1 digit; it needs exactly 10.",
    );
    expect(t("en")("err-phone-mobile-length", { actual: 1 })).toContain("has 1 digit,");
  });
});

describe("an operator's name", () => {
  it("is never preceded by an article chosen for another name", () => {
    const text = t("en")("mobile-operator-mismatch", {
      number: "9851234567",
      operator: "NTC Postpaid",
      prefixes: "985",
      detected: "NTC Prepaid",
    });
    expect(text).toBe(
      "NTC Postpaid numbers start with 985, and 9851234567 does not. It looks like NTC Prepaid (marked ✓). Which operator is it?",
    );
  });
});

describe("an order the provider never received", () => {
  const failed = placedOrder({
    reference: "1700000000078",
    status: "failed",
    providerMessage: NOT_EXECUTED_MESSAGE,
  });

  it("is told to the customer as not gone through, never with the provider's internals", () => {
    const en = finalText(t("en"), failed);
    expect(en).toContain("Reason: the order did not go through");
    expect(en).toContain("Nothing was charged.");
    expect(en).not.toMatch(/provider/i);
    const ne = finalText(t("ne"), failed);
    expect(ne).toContain("अर्डर पूरा हुन सकेन");
    expect(ne).not.toMatch(/provider/i);
    const hi = finalText(t("hi"), failed);
    expect(hi).toContain("ऑर्डर पूरा नहीं हो सका");
    expect(hi).not.toMatch(/provider/i);
  });

  it("keeps the technical words for agents and admins", () => {
    expect(failureReason(t("en"), failed, "admin")).toBe(NOT_EXECUTED_MESSAGE);
    expect(failureReason(t("en"), failed, "agent")).toBe(NOT_EXECUTED_MESSAGE);
    expect(failureReason(t("en"), failed)).toBe("the order did not go through");
  });

  it("leaves the operator's own words of any other failure as they are", () => {
    const barred = { ...failed, providerMessage: "Number barred" };
    expect(failureReason(t("en"), barred)).toBe("Number barred");
  });
});

describe("the alerts standing in /books", () => {
  // Every alert raised at once: each its own line, with its figures, in each language.
  const all: BooksReport = {
    ...report(2),
    raised: { drift: true, unbalanced: true, noVerdict: true, lowFloat: true },
    lowFloatPaisa: 100_000,
    float: {
      ...report(2).float,
      expectedPaisa: 485_000,
      reportedPaisa: 5_000,
      driftPaisa: -480_000,
    },
  };

  it.each(["en", "ne", "hi"])("in %s: one line per alert, each with its figures", (locale) => {
    const lines = booksText(t(locale), all).split("\n");
    const at = lines.indexOf(t(locale)("books-raised-title", { count: 4 }));
    expect(at).toBeGreaterThan(0);
    const raised = lines.slice(at + 1);
    expect(raised).toHaveLength(4);
    expect(raised[0]).toMatch(/4,850.*50.*-.*4,800/);
    expect(raised[3]).toMatch(/50.*1,000/);
    for (const line of raised) expect(line.startsWith("⚠️")).toBe(true);
    if (locale !== "en") {
      const en = booksText(t("en"), all)
        .split("\n")
        .slice(at + 1);
      for (const [i, line] of raised.entries()) expect(line).not.toBe(en[i]);
    }
  });
});
