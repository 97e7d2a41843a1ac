import { describe, expect, it } from "vitest";
import { heldFacts } from "../../conversations/top-up/notices.ts";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { topUpSchema } from "../../src/payments/index.ts";

/**
 * Review s24-e, 9: a top-up held because the gateway reported another currency reads in that
 * currency ("140.00 USD", Latin digits in every language), never "Rs 140.00 USD"; in NPR, or with
 * no currency named, it reads in rupees.
 */

const i18n = createI18n(() => "en");
const heldIn = (currency?: string) =>
  topUpSchema.parse({
    id: "TUcurrency01",
    gateway: "khalti",
    paymentId: "PIDXcurrency01",
    paymentUrl: "https://pay.example/PIDXcurrency01",
    userId: 961,
    chatId: 961,
    locale: "en",
    amountPaisa: 14_000,
    status: "held",
    version: 1,
    createdAt: 1,
    updatedAt: 1,
    expiresAt: 2,
    held: {
      reasons: currency && currency !== "NPR" ? ["currency"] : ["amount"],
      reportedPaisa: 14_000,
      transactionId: "TX1",
      feePaisa: 0,
      ...(currency ? { currency } : {}),
      at: 1,
    },
  });

describe("the held facts of a top-up paid in another currency", () => {
  for (const locale of ["en", "ne", "hi"]) {
    it(`name the gateway's currency without the rupee sign (${locale})`, () => {
      const tr = translator(i18n, locale);
      const [asked] = heldFacts(tr, heldIn("usd"));
      expect(asked).toContain("140.00 USD");
      expect(asked).not.toMatch(/(Rs|रु|₹)\.? ?140(\.00)? USD/);
      const [npr] = heldFacts(tr, heldIn("NPR"));
      expect(npr).not.toContain("NPR");
      const [none] = heldFacts(tr, heldIn());
      expect(none).toBe(npr);
    });
  }
});
