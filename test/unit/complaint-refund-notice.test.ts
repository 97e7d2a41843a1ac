import { describe, expect, it } from "vitest";
import { createI18n } from "../../src/bot/i18n.ts";
import { complaintNotice } from "../../src/system/complaints.ts";
import { memoryComplaints, paidOrder, refundedComplaint } from "../support/complaints.ts";

/**
 * The customer's notice of a complaint resolved with a refund (review s20-r2, finding 4; review
 * s24-c, finding 5): the notice is queued in the same step as the refund and carries the balance
 * the refund left, read in that step; the notifier words it (complaintNotice) in the customer's
 * language. A notice without a balance (none was read) leaves the balance line out: it must
 * never say "Balance: Rs 0" for a balance nobody read. And the admin is not told "the customer
 * was told" when the notice is only queued.
 */

const i18n = createI18n(() => "en");
const LOCALES = ["en", "ne", "hi"] as const;
/** The balance the refund left, said as that (the notice may be sent later, the balance moved). */
const BALANCE_LINE = {
  en: "Balance after the refund:",
  ne: "फिर्तापछिको मौज्दात:",
  hi: "रिफ़ंड के बाद बैलेंस:",
} as const;

const order = paidOrder("1700000000001", 42, 25_000);

/** A refund of Rs 250 through the service: the notice it queued, and the product's words for it. */
async function refundNotice(locale: string) {
  const { store, service, queued } = memoryComplaints(order);
  const { done } = await refundedComplaint(service, 42, order.reference, 25_000, { locale });
  expect(done.ok).toBe(true);
  const [notice, ...more] = queued;
  expect(more).toEqual([]);
  if (notice?.kind !== "complaint") throw new Error("no complaint notice queued");
  return { notice, words: complaintNotice(i18n, store, async () => null) };
}

describe("a complaint refund's notice", () => {
  it("is queued with the refund, with the balance it left, and worded in the customer's language", async () => {
    for (const l of LOCALES) {
      const { notice, words } = await refundNotice(l);
      expect(notice).toMatchObject({ status: "resolved", chatId: 42, balancePaisa: 25_000 });
      const said = await words(notice);
      expect(said?.locale).toBe(l);
      expect(said?.text).toContain(BALANCE_LINE[l]);
      if (l === "en")
        expect(said?.text).toContain(
          "Rs 250 was returned to your balance. Balance after the refund: Rs 250",
        );
      // The same words in another language (a WhatsApp template's).
      expect(said?.in("en")).toContain("Rs 250 was returned to your balance.");
    }
  });

  it("leaves the balance out, in every language, when the notice carries none", async () => {
    const { notice, words } = await refundNotice("en");
    const { balancePaisa: _, ...without } = notice;
    const said = await words(without);
    for (const l of LOCALES) {
      const text = said?.in(l) ?? "";
      expect(text).toBeTruthy();
      expect(text).not.toContain(BALANCE_LINE[l]);
    }
    expect(said?.text).toContain("Rs 250 was returned to your balance.");
    expect(said?.text).not.toContain("Rs 0");
  });

  it("is not claimed delivered in the admin's answer (it is queued)", () => {
    const keys = [
      "complaint-taken-by-you",
      "complaint-admin-resolved",
      "complaint-admin-refunded",
      "complaint-admin-rejected",
    ];
    const told = { en: "the customer was told", ne: "जानकारी दिइयो", hi: "बता दिया गया" } as const;
    const queuedWords = { en: "on its way", ne: "पठाइँदै छ", hi: "भेजी जा रही है" } as const;
    const args = { ref: "C100001", amount: "Rs 250", transfer: "complaint:C100001:refund" };
    for (const l of LOCALES)
      for (const key of keys) {
        const text = i18n.t(l, key, args);
        expect(text).not.toContain(told[l]);
        expect(text).toContain(queuedWords[l]);
      }
  });
});
