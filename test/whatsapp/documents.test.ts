import { describe, expect, it } from "vitest";
import { pdfText } from "../support/pdf-text.ts";
import { useTestSystem } from "../support/system.ts";
import { confirmUntil, creditedCustomer, openCategory } from "../support/whatsapp-steps.ts";

/**
 * Documents on WhatsApp (issue 30): the success push offers "Share receipt"; a tap uploads the
 * receipt's PDF as media and sends it as a `document` message naming it (the stand-in checks
 * both as Meta does: the upload's type and bytes, the message's media id), with the receipt's
 * figures inside.
 */
describe("WhatsApp: a receipt to keep", () => {
  const ts = useTestSystem({ env: { ACCESS_MODE: "prepaid" } });

  it("Share receipt under the success push sends the receipt as a PDF document", async () => {
    const { u } = await creditedCustomer(ts, "9779841000401", 500_000);
    await openCategory(u, /Mobile top-up/, /Which mobile number should I recharge/);
    await u.say("9841234567", /9841234567 · NTC Prepaid\nHow much\?/);
    await u.say("150", /Please check your order/);
    const { ref, push } = await confirmUntil(u, "succeeded");
    expect(u.buttons(push)).toContain("📄 Share receipt");
    const doc = await u.tap("📄 Share receipt", (m) => m.kind === "document");
    expect(doc.text).toBe(`Receipt for order ${ref}: keep it or forward it.`);
    expect(doc.document).toMatchObject({
      filename: `receipt-${ref}.pdf`,
      mimeType: "application/pdf",
    });
    const pdf = pdfText(doc.document!.bytes).text;
    expect(pdf).toContain(`Order ${ref}`);
    expect(pdf).toContain("NTC Prepaid · 9841234567 · Rs 150");
    expect(pdf).toContain("Total paid: Rs 150");
    expect(pdf).toContain("Balance after: Rs 4,850");
  });
});
