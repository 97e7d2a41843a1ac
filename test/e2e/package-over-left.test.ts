import { afterEach, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * Package lists under the daily cap (review s32-flows, 2): a pack over what is left today is not
 * offered and the question says so, as amounts and India plans are narrowed; with none left that
 * fits, the customer is told and asked the kind of pack again (before: every pack was offered,
 * and the one picked ended the flow with "You have reached today's limit").
 */
describe("package lists narrowed to what is left today", () => {
  let ts: TestSystem | undefined;
  afterEach(async () => {
    await ts?.cleanup();
    ts = undefined;
  });

  it("offers only the data packs that fit, and says the others are left out", async () => {
    ts = await startTestSystem({ env: { DAILY_SPEND_CAP: "120" } });
    const u = ts.user(9331);
    await u.menu("📶 Data pack", /Which mobile number is the pack for/);
    await u.say("9801234567", /9801234567 is an Ncell number/);
    const list = await u.tap("📶 Data", /Ncell Data packs for 9801234567 \(1\)/);
    expect(list.text.split("\n")[0]).toBe(
      "Packs that cost more than you may still pay today are not shown.",
    );
    expect(u.buttons(list)).toEqual(["1.5 GB / 1 day · Rs 100", "‹ Back", "✖ Cancel"]);
    const confirm = await u.tap("1.5 GB / 1 day · Rs 100", /Please check your order/);
    expect(confirm.text).toContain("Amount: Rs 100");
  });

  it("says none fits and asks the kind of pack again", async () => {
    ts = await startTestSystem({ env: { DAILY_SPEND_CAP: "90" } });
    const u = ts.user(9332);
    await u.menu("📶 Data pack", /Which mobile number is the pack for/);
    await u.say("9801234567", /9801234567 is an Ncell number/);
    u.press("📶 Data");
    await u.waitFor(/None of these packs fits what you may still pay today \(Rs 90\)/);
    await u.waitFor(/9801234567 is an Ncell number/);
    expect(u.botTexts().join("\n")).not.toContain("reached today's limit");
    expect(await ts.system.orders.listByUser(9332, 10)).toEqual([]);
  });
});
