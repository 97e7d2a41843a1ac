import { describe, expect, it } from "vitest";
import { expectFailurePush } from "../support/chat.ts";
import { ledgerFor, useTestSystem } from "../support/system.ts";

/**
 * Issue 30: a failure push has the next step as buttons. Try again starts the same order again
 * with its answers (through the confirmation: a new order, a new reference), Change number starts
 * the category afresh. A success push keeps its "Save as…".
 */
describe("the buttons under a final push", () => {
  const ts = useTestSystem();

  it("a failed order's push offers Try again and Change number; Try again repeats it, once", async () => {
    const u = ts.user(3201);
    await u.mobileToConfirm("9861230000", "100");
    const { ref, push } = await u.confirmUntil("failed");
    expectFailurePush(push);
    expect(u.buttons(push)).toEqual(["🔁 Try again", "✏️ Change number"]);

    // Try again: the same number and amount, at the confirmation, nothing typed again.
    const again = await u.tap("🔁 Try again", /Please check your order/);
    expect(again.text).toContain("9861230000");
    expect(again.text).toContain("Rs 100");
    const second = await u.confirmUntil("failed");
    expect(second.ref).not.toBe(ref);
    // One execute per order at the aggregator: nothing was sent twice.
    expect(ledgerFor(ts, ref).length).toBeLessThanOrEqual(1);
    expect(ledgerFor(ts, second.ref).length).toBeLessThanOrEqual(1);
    expect((await ts.system.orders.listByUser(3201, 10)).map((o) => o.reference).sort()).toEqual(
      [ref, second.ref].sort(),
    );

    // Change number: the category again from its first question.
    await u.tap("✏️ Change number", /Which mobile number/);
  });

  it("a success push keeps Save as…, and the failure push speaks Nepali", async () => {
    const u = ts.user(3202);
    await u.mobileToConfirm("9841233202", "100");
    const { push } = await u.confirmUntil("succeeded");
    expect(u.buttons(push)).toEqual(["🏷 Save as…", "📄 Share receipt", "⚠️ Report a problem"]);

    const ne = ts.user(3203, { language_code: "ne" });
    await ne.say("/recharge", /के तिर्न चाहनुहुन्छ/);
    await ne.tap("📱 मोबाइल टप-अप", /कुन मोबाइल नम्बर/);
    await ne.say("9861230000", /NTC Prepaid\nकति/);
    await ne.say("100", /अर्डर जाँच्नुहोस्/);
    ne.press(/पुष्टि/);
    const failed = await ne.waitFor((m) => m.text.includes("❌"));
    expect(ne.buttons(failed)).toEqual(["🔁 फेरि प्रयास गर्ने", "✏️ नम्बर बदल्ने"]);
  });
});
