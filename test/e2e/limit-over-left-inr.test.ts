import { describe, expect, it } from "vitest";
import { fundedUser, indiaAmountQuestion, usePricedSystem } from "../support/pricing-rig.ts";

/**
 * An India order over what is left of today's cap (review s33-rvtruth 8): the amount question asks
 * in ₹, the cap and what is left are Nepal rupees. The refusal says the limit is in Nepali rupees
 * and names the order's ₹ amount beside what it counts, so "up to Rs 500" is not read as ₹500.
 * Real Redis, prepaid, ₹1 = Rs 1.6, a Rs 1,000 cap.
 */
describe("an India order over what is left of today's cap", () => {
  const ts = usePricedSystem({ inrRate: "1.6", dailyCap: "1000" });

  it("says the limit is in Nepali rupees and the order's ₹ amount", async () => {
    const u = await fundedUser(ts, 24_931);
    await indiaAmountQuestion(u, "9810012931");
    const c = await u.say("400", /Please check/);
    expect(c.text).toContain("Rs 640");
    // Another order of the customer's took Rs 500 of today's Rs 1,000 meanwhile.
    expect((await ts.system.deps.limits.reserve(u.id, 50_000, "other-24931")).ok).toBe(true);
    const refused = await u.tap("✅ Confirm", /limit/);
    expect(refused.text).toMatch(
      /^Today's limit is in Nepali rupees: this order of ₹400 counts Rs 640 \(converted, service charge included\) towards today's limit of Rs 1,000, and Rs 500 of it is left today\. You can order now an amount whose converted total is up to Rs 500, or this order from /,
    );
    expect(await ts.system.orders.listByUser(u.id, 10)).toHaveLength(0);
  });
});
