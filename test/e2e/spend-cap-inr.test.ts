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
});
