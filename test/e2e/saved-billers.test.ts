import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { waterBill } from "../../dev/sandbox/lookups.ts";
import { NEPALI_MONTHS, nepaliMonthAt } from "../../src/catalog/index.ts";
import { formatMoney, formatRupees, toPaisa } from "../../src/money.ts";
import { ledgerFor, REDIS_URL, useTestSystem } from "../support/system.ts";

/**
 * Saved water and internet accounts paid again (issue 16): the questions a saved biller answers
 * are not asked; water assumes this Nepali month (another is a button away) and checks its bill
 * afresh, so a month paid shows nothing due; internet lists the packages at once. On Redis, so the
 * product's own wiring of the Redis store is what saves and offers them.
 */
describe("saved billers, end to end (Redis)", () => {
  const ts = useTestSystem({ redis: true });

  it("pays a saved water account again: office, customer id and month are not asked, the bill is fresh", async () => {
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
    // The second tap shows this Nepali month's bill, checked afresh: the month paid shows nothing due.
    const month = NEPALI_MONTHS[nepaliMonthAt(Date.now())! - 1];
    const bill = await u.tap(label, new RegExp(`Water bill of .+ \\(${month}\\)`));
    expect(bill.text).toContain("Nothing is due on this account right now.");
    const advance = await u.waitFor(/You can pay in advance/);
    expect(u.buttons(advance)).toEqual(["📅 Another month", "‹ Back", "✖ Cancel"]);
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
  for (const [locale, userId] of [
    ["en", 1513],
    ["ne", 1514],
  ] as const) {
    it(`pays a saved water account in two taps (${locale}): this month's bill, another month, Edit › Month`, async () => {
      const t = (key: string, params?: Record<string, string>) =>
        ts.system.deps.i18n.t(locale, key, params);
      const money = (rupees: string) => formatMoney(toPaisa(rupees), { locale });
      const u = ts.user(userId, { language_code: locale });
      const number = `12345${userId}`;
      await ts.system.deps.saved!.remember(userId, {
        category: "water",
        number,
        biller: { operatorId: 46, officeCode: "501" },
        usedAt: 1,
      });
      const current = nepaliMonthAt(Date.now())!;
      const other = current === 7 ? 6 : 7;
      const name = waterBill(number, "0", current).customer_name;
      const title = (month: number) =>
        t("water-bill-title", { name, month: t(`bill-month-${month}`) });

      await u.say("/recharge", t("menu-prompt"));
      const saved = await u.tap(t("menu-water"), t("saved-ask-biller"));
      // Tap two: this month's bill, with nothing asked in between.
      const bill = await u.tap(number, title(current));
      const due = money(waterBill(number, "0", current).bill_amount);
      const ask = await u.waitFor((m) => u.buttons(m).includes(t("water-another-month")));
      expect(u.buttons(ask)).toEqual([
        t("bill-pay-due", { amount: due }),
        t("water-another-month"),
        t("common-back"),
        t("common-cancel"),
      ]);
      const texts = u.botTexts();
      expect(texts.slice(texts.lastIndexOf(saved.text)).includes(t("water-ask-month"))).toBe(false);
      expect(bill.text).toContain(title(current));

      // Another month: the month question (with Back), then that month's bill.
      const months = await u.tap(t("water-another-month"), t("water-ask-month"));
      expect(u.buttons(months)).toContain(t("common-back"));
      const otherBill = await u.tap(t(`bill-month-${other}`), title(other));
      const otherDue = t("bill-pay-due", {
        amount: money(waterBill(number, "0", other).bill_amount),
      });
      await u.waitFor((m) => m.id > otherBill.id && u.buttons(m).includes(otherDue));
      const confirm = await u.tap(otherDue, t("confirm-title"));
      expect(confirm.text).toContain(t("water-confirm-month", { month: t(`bill-month-${other}`) }));

      // Edit › Month at the confirmation asks the month and checks that month's bill again.
      await u.tap(t("flow-edit-month"), t("water-ask-month"));
      const billAgain = await u.tap(t(`bill-month-${current}`), title(current));
      const payDue = t("bill-pay-due", { amount: due });
      await u.waitFor((m) => m.id > billAgain.id && u.buttons(m).includes(payDue));
      const again = await u.tap(payDue, t("confirm-title"));
      expect(again.text).toContain(t("water-confirm-month", { month: t(`bill-month-${current}`) }));
      const receipt = await u.tap(t("common-confirm"), /\d{6,}/);
      const ref = /(\d{6,})/.exec(receipt.text)![1]!;
      await u.waitFor(t("notify-title-success", { ref }));
      expect(await ts.system.orders.get(ref)).toMatchObject({
        status: "success",
        connectionNo: number,
        amountPaisa: toPaisa(waterBill(number, "0", current).bill_amount),
        details: { officeCode: "501", monthId: current },
      });
      // One payment at the sandbox, for this month.
      expect(ledgerFor(ts, ref)).toHaveLength(1);
    });
  }
});
