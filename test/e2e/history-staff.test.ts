import { describe, expect, it } from "vitest";
import { type TestUser, useTestSystem } from "../support/system.ts";

/**
 * Staff mode (ACCESS_MODE=staff): the merchant's wallet pays and no customer balance exists, so
 * /history never says an India order's money came "from", was "held from" or "returned to your
 * balance" (review s21, finding 11). Staff orders carry no Nepal-rupee charge (charges.ts
 * `exchangeOf` is for prepaid balances) and no hold: the total is the ₹ price alone. The words
 * for an order with a charge but no hold are test/unit/money-words.test.ts's.
 */
describe("history in staff mode", () => {
  const ts = useTestSystem({
    env: { ACCESS_MODE: "staff", STAFF_IDS: "4711", INR_TO_NPR_RATE: "1.6", LOW_FLOAT_ALERT: "0" },
  });
  const t = (locale: string, key: string) => ts.system.deps.i18n.t(locale, key);

  async function indiaOrder(u: TestUser, locale: string): Promise<string> {
    await u.say("/recharge", t(locale, "menu-prompt"));
    await u.tap(t(locale, "menu-india"));
    await u.tap(t(locale, "india-kind-prepaid"));
    await u.say("9810012345", /Airtel Prepaid · Delhi NCR/);
    await u.tap(/Airtel Prepaid · Delhi NCR \(/, /9810012345/);
    await u.say("100", new RegExp(t(locale, "confirm-title").slice(0, 12)));
    const receipt = await u.tap(t(locale, "common-confirm"), /🧾 \S+ \d+/);
    const ref = /🧾 \S+ (\d+)/.exec(receipt.text)?.[1] ?? "";
    await expect
      .poll(async () => (await ts.system.orders.get(ref))?.status, { timeout: 8000 })
      .toBe("success");
    return ref;
  }

  it("an India order's total names no balance", async () => {
    const u = ts.user(4711);
    const ref = await indiaOrder(u, "en");
    const order = await ts.system.orders.get(ref);
    expect(order?.holdId).toBeUndefined();
    expect(order?.exchange).toBeUndefined();
    const list = await u.say("/history", /Your last orders/);
    expect(list.text).toContain(`Total: ₹100 · Ref: ${ref}`);
    expect(list.text).not.toMatch(/balance/);
  });
});
