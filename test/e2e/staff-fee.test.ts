import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";

const dir = mkdtempSync(join(tmpdir(), "staff-fee-"));
const scheduleFile = join(dir, "prices.json");
writeFileSync(scheduleFile, JSON.stringify({ default: { fee: { flat: "5" } } }));

/**
 * Staff mode with a fee in the schedule (review s24-i, 3): the merchant's wallet pays the face
 * amount and nobody pays or books a fee, so the confirmation, the receipt and /history all show
 * the face amount (before, the confirmation said "Fee: ₹5 / Total to pay: ₹105", the receipt ₹100
 * and /history "Total: ₹105").
 */
describe("staff mode shows no fee nobody pays", () => {
  const ts = useTestSystem({
    env: {
      ACCESS_MODE: "staff",
      STAFF_IDS: "4713",
      PRICE_SCHEDULE_FILE: scheduleFile,
      LOW_FLOAT_ALERT: "0",
    },
  });
  const t = (locale: string, key: string) => ts.system.deps.i18n.t(locale, key);

  it("confirmation, receipt and /history agree on ₹100", async () => {
    const u = ts.user(4713);
    await u.say("/recharge", t("en", "menu-prompt"));
    await u.tap(t("en", "menu-india"));
    await u.tap(t("en", "india-kind-prepaid"));
    await u.say("9810012345", /Airtel Prepaid · Delhi NCR/);
    await u.tap(/Airtel Prepaid · Delhi NCR \(/, /9810012345/);
    const c = await u.say("100", /Please check/);
    expect(c.text).toContain("Amount: ₹100");
    expect(c.text).not.toMatch(/Fee|Total|₹105/);
    const receipt = await u.tap(t("en", "common-confirm"), /🧾 \S+ \d+/);
    expect(receipt.text).toContain("₹100");
    expect(receipt.text).not.toContain("₹105");
    const ref = /🧾 \S+ (\d+)/.exec(receipt.text)?.[1] ?? "";
    await expect
      .poll(async () => (await ts.system.orders.get(ref))?.status, { timeout: 8000 })
      .toBe("success");
    const order = await ts.system.orders.get(ref);
    expect(order?.price?.totalPaisa).toBe(10_000);
    const list = await u.say("/history", /Your last orders/);
    expect(list.text).toContain("₹100");
    expect(list.text).not.toContain("₹105");
  });
});
