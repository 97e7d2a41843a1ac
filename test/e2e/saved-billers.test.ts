import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { waterBill } from "../../dev/sandbox/lookups.ts";
import { formatRupees, toPaisa } from "../../src/money.ts";
import { REDIS_URL, useTestSystem } from "../support/system.ts";

/**
 * Saved water and internet accounts paid again (issue 16): the questions a saved biller answers
 * are not asked; water still asks the month (the bill's own answer), and its bill is checked
 * afresh, so a month paid shows nothing due; internet lists the packages at once. On Redis, so the
 * product's own wiring of the Redis store is what saves and offers them.
 */
describe("saved billers, end to end (Redis)", () => {
  const ts = useTestSystem({ redis: true });

  it("pays a saved water account again: office and customer id are not asked, the month is, the bill is fresh", async () => {
    const u = ts.user(1511);
    await u.menu("🚰 Water bill", /which office is your water connection with\?/);
    await u.tap("KUKL Kamaladi", /customer id at KUKL Kamaladi/);
    await u.say("1234571", /For which month/);
    await u.tap("Kartik", /Water bill of/);
    const expected = waterBill("1234571", "0", 7);
    await u.payDue(formatRupees(toPaisa(expected.bill_amount)));
    await u.confirmUntil("succeeded");
    // Kept in the user's own hash-tagged key, without a TTL.
    const key = `${ts.prefix}{user:1511}:saved`;
    const redis = new Redis(REDIS_URL);
    try {
      expect(await redis.ttl(key)).toBe(-1);
    } finally {
      redis.disconnect();
    }

    const label = `1234571 · ${expected.customer_name}`;
    const saved = await u.menu("🚰 Water bill", /Pay one of your saved accounts/);
    expect(u.buttons(saved)).toEqual([label, "➕ Another account", "✖ Cancel"]);
    const month = await u.tap(label, /For which month\?/);
    expect(u.buttons(month)).toContain("‹ Back");
    const bill = await u.tap("Kartik", /Water bill of/);
    expect(bill.text).toContain("Nothing is due on this account right now.");
    await u.waitFor(/You can pay in advance/);
    const confirm = await u.say("300", /Please check your order/);
    expect(confirm.text).toContain("Office: KUKL Kamaladi");
    expect(confirm.text).toContain("Number / account: 1234571");
    // Back to the saved accounts, and another account asks everything.
    await u.tap("✖ Cancel", /Cancelled/);
    await u.menu("🚰 Water bill", /Pay one of your saved accounts/);
    const offices = await u.tap("➕ Another account", /which office/);
    expect(u.buttons(offices)).toContain("‹ Back");
    await u.tap("‹ Back", /Pay one of your saved accounts/);
  });

  it("pays a saved internet account again: the packages are listed at once", async () => {
    const u = ts.user(1512);
    await u.menu("🌐 Internet", /Which internet provider\?/);
    await u.say("dg link", /Your DG Link username/);
    await u.say("dglink.sita", /DG Link packages for dglink.sita/);
    await u.tap("DG Link 60 Mbps - 1 Month · Rs 1,050", /Please check your order/);
    await u.confirmUntil("succeeded");

    const saved = await u.menu("🌐 Internet", /Pay one of your saved accounts/);
    expect(u.buttons(saved)).toEqual(["dglink.sita", "➕ Another account", "✖ Cancel"]);
    const list = await u.tap("dglink.sita", /DG Link packages for dglink.sita/);
    expect(u.buttons(list)).toContain("DG Link 60 Mbps - 1 Month · Rs 1,050");
    // Edit of the account at the confirmation asks the username (the saved one no longer fills it).
    const confirm = await u.tap("DG Link 60 Mbps - 1 Month · Rs 1,050", /Please check your order/);
    expect(confirm.text).toContain("Number / account: dglink.sita");
    await u.tap("✏️ Customer id", /Your DG Link username/);
  });
});
