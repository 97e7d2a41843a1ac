import { describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { fundedUser, indiaAmountQuestion, usePricedSystem } from "../support/pricing-rig.ts";

/**
 * The daily spend cap is in Nepal rupees and counts what the balance pays (review s24-i, 1):
 * an India order counts its converted total, and the India amount question offers what is left
 * as the ₹ amount it pays for (before, ₹900 passed a Rs 1,000 cap and took Rs 1,440, and the next
 * question offered the Rs 100 left as "₹100").
 */
describe("the daily cap counts an India order in Nepal rupees", () => {
  const ts = usePricedSystem({ inrRate: "1.6", dailyCap: "1000" });

  it("offers Rs 1,000 as ₹625, holds Rs 960 for ₹600, then says the cap is reached", async () => {
    const u = await fundedUser(ts, 24_911);
    const q = await indiaAmountQuestion(u, "9810012345");
    expect(q.text).toContain("to ₹625");
    // "Rs 600" is Nepal rupees: re-asked with the reason, never read as ₹600 (review s24-i, 5).
    const rs = await u.say("Rs 600", /Indian rupees/);
    expect(rs.text).toContain("without Rs");
    const over = await u.say("900", /largest/i);
    expect(over.text).toContain("₹625");
    const c = await u.say("600", /Please check/);
    expect(c.text).toContain("Rs 960");
    await u.confirm();
    const b = await ts.system.ledger.balance(account.customer(u.id));
    expect(b.heldPaisa).toBe(96_000);
    // Rs 40 left: less than the least India amount (₹50 = Rs 80), so the cap is said, in Rs.
    const refused = await indiaAmountQuestion(u, "9810012346", /limit/);
    expect(refused.text).toContain("Rs 1,000");
  });

  /**
   * Plans and a DTH pack's amount the cap leaves no room for today are not offered, and the
   * customer is told why (review s25-b, 2: they disappeared without a word).
   */
  it("says that plans above what is left today are not shown", async () => {
    const u = ts.user(24_912);
    await u.register();
    await u.credit(500_000);
    // Rs 1,000 left is ₹625: the ₹666 and ₹2,999 plans do not fit today.
    const q = await indiaAmountQuestion(u, "9810012347");
    expect(q.text).toContain("Choose a plan");
    expect(u.botTexts().join("\n")).toContain(
      "Plans that cost more than you may still pay today are not shown.",
    );
    expect(u.buttons(q).join("\n")).toContain("₹299 · 28 days");
    expect(u.buttons(q).join("\n")).not.toContain("₹666");
  });

  it("says that a DTH pack's amount is more than is left today, and offers no button for it", async () => {
    const u = ts.user(24_913);
    await u.register();
    await u.credit(500_000);
    // Rs 400 left is ₹250: the sandbox's monthly ₹299 for 1234560000 does not fit.
    expect((await ts.system.deps.limits.reserve(u.id, 60_000, "earlier-24913")).ok).toBe(true);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("🇮🇳 India recharge", /India: what do you want to recharge/);
    await u.tap("📡 DTH (TV)", /Your DTH subscriber id/);
    await u.say("1234560000", /DTH \(TV\): which operator/);
    await u.tap("Tata Play", /Which telecom circle/);
    await u.say("delhi", /Tata Play subscriber 1234560000/);
    const q = await u.waitFor(/Choose a plan for 1234560000/);
    const said = u.botTexts().join("\n");
    expect(said).toContain(
      "The monthly recharge (₹299) is more than you may still pay today (₹250): you can recharge a smaller amount now.",
    );
    expect(said).toContain("Plans that cost more than you may still pay today are not shown.");
    expect(u.buttons(q)).not.toContain("Pay the monthly recharge: ₹299");
    expect(u.buttons(q).join("\n")).toContain("₹153 · 1 month");
  });
});
