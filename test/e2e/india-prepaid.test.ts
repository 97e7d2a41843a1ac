import { describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { expectParts } from "../support/chat.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { INDIA_FEE_150, usePricedSystem } from "../support/pricing-rig.ts";
import { ledgerFor, type TestUser } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * Issue 15: India orders paid from the Nepal-rupee balance (prepaid mode) at INR_TO_NPR_RATE,
 * on Redis (the order scripts hold and settle inside the ledger). ₹100 with a ₹1.50 fee is ₹101.50,
 * Rs 162.40 at 1.6: the confirm screen shows both and the balance after in Rs, the hold takes the
 * Rs, success captures it and failure returns it; receipts never show the balance as ₹ nor ₹ as Rs.
 */

describe("India orders from a Nepal-rupee balance", () => {
  const ts = usePricedSystem({ schedule: INDIA_FEE_150, inrRate: "1.6" });

  const ledger = () => ts.system.ledger;
  const balance = (u: TestUser) => ledger().balance(account.customer(u.id));
  const t = (locale: string, key: string) => ts.system.deps.i18n.t(locale, key);

  async function customer(id: number, paisa: number, language_code = "en") {
    const u = ts.user(id, { language_code });
    if (language_code === "en") await u.register();
    else {
      u.emu.sendContact(id, { phoneNumber: `+${u.phone()}` });
      await u.waitFor(/✅ .*(पंजीकरण हो गया|दर्ता भयो)/);
    }
    await u.credit(paisa);
    return u;
  }

  /** /recharge -> India -> prepaid -> the number -> the suggested Airtel · Delhi NCR -> ₹100. */
  async function toConfirm(u: TestUser, locale: string, number: string) {
    await u.say("/recharge", t(locale, "menu-prompt"));
    await u.tap(t(locale, "menu-india"));
    await u.tap(t(locale, "india-kind-prepaid"));
    await u.say(number, /Airtel Prepaid · Delhi NCR/);
    await u.tap(/Airtel Prepaid · Delhi NCR \(/, new RegExp(number));
    return u.say("100", new RegExp(t(locale, "confirm-title").slice(0, 12)));
  }

  it("in English: the confirm screen in ₹ and Rs, Rs 162.40 held then taken, the receipt says both", async () => {
    const u = await customer(15_001, 100_000);
    // The books' opening float is anchored before the order, so the check below is a real one.
    expect((await ts.system.books.report()).float.driftPaisa).toBe(0);

    const confirm = await toConfirm(u, "en", "9810012345");
    expectParts(confirm.text, [
      "Amount: ₹100",
      "Fee: ₹1.50",
      "Total: ₹101.50",
      "To pay from your balance: Rs 162.40 (₹1 = Rs 1.60)",
      "Balance after: Rs 837.60",
    ]);
    expect(confirm.text).not.toMatch(/Total to pay|Rs 101|₹162|Balance after: ₹/);

    const { receipt, ref } = await u.confirm();
    expect(receipt.text).toContain("Held from your balance: Rs 162.40 (₹1 = Rs 1.60)");
    const order = (await ts.system.orders.get(ref))!;
    expect(order.price).toEqual({
      amountPaisa: 10_000,
      feePaisa: 150,
      discountPaisa: 0,
      totalPaisa: 10_150,
    });
    expect(order.exchange).toEqual({ rateE4: 16_000, totalPaisa: 16_240, feePaisa: 240 });
    expect((await ledger().pendingOf(order.holdId!))?.hold.amountPaisa).toBe(16_240);

    const push = await u.outcome(ref, "succeeded");
    expectParts(push.text, [
      "Airtel Prepaid · 9810012345 · ₹100",
      "Fee: ₹1.50",
      "Total: ₹101.50",
      "Paid Rs 162.40 from your balance (₹1 = Rs 1.60)",
      "Balance after: Rs 837.60",
    ]);
    expect(push.text).not.toMatch(/₹162|Rs 101|Balance after: ₹/);
    await waitUntil(
      async () => (await ledger().pendingOf(order.holdId!))?.state === "posted",
      "the hold posted",
    );
    expect(await balance(u)).toMatchObject({ postedPaisa: 100_000 - 16_240, heldPaisa: 0 });

    // The aggregator debited its Nepal-rupee wallet ₹100 at its own rate (the sandbox's 1.6):
    // booked as reported, the books still match its credit_available.
    expect(ledgerFor(ts, ref)).toMatchObject([{ amountPaisa: 10_000, debitPaisa: 16_000 }]);
    const books = await ts.system.books.report();
    expect(books.float.driftPaisa).toBe(0);
    // Margin: Rs 162.40 paid − Rs 160 debited + Rs 3.20 commission (2 % of the debit).
    expect(books.margin).toEqual({ orders: 1, marginPaisa: 560, commissionReportedPaisa: 320 });
    expect(books.feeIncomePaisa).toBe(240);
    await expectBooksBalanced(ledger());
  });

  it("in Hindi: a failed order returns the Rs held, said in रु", async () => {
    const u = await customer(15_002, 100_000, "hi");
    const confirm = await toConfirm(u, "hi", "9810010000");
    expect(confirm.text).toContain("बैलेंस से भुगतान: रु 162.40 (₹1 = रु 1.60)");
    expect(confirm.text).toContain("बाद में बैलेंस: रु 837.60");
    const receipt = await u.tap("✅ पुष्टि करें", /🧾 ऑर्डर \d+/);
    const ref = /ऑर्डर (\d+)/.exec(receipt.text)![1]!;
    const push = await u.waitFor(new RegExp(`❌ ऑर्डर ${ref}`));
    expect(push.text).toContain("रु 162.40 आपके बैलेंस में वापस कर दिए गए।");
    expect(push.text).toContain("कुल: ₹101.50");
    expect(push.text).not.toMatch(/₹162|रु 101|बैलेंस: ₹/);
    const order = (await ts.system.orders.get(ref))!;
    await waitUntil(
      async () => (await ledger().pendingOf(order.holdId!))?.state === "voided",
      "the hold voided",
    );
    expect(await balance(u)).toMatchObject({ postedPaisa: 100_000, heldPaisa: 0 });
    await expectBooksBalanced(ledger());
  });

  it("a balance that covers the ₹ figure but not its Rs is told the shortfall in Rs, before confirm", async () => {
    const u = await customer(15_003, 15_000);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("🇮🇳 India recharge", /India: what do you want to recharge/);
    await u.tap("📱 Prepaid mobile", /Which mobile number/);
    await u.say("9810012345", /only a suggestion/);
    await u.tap("Airtel Prepaid · Delhi NCR (suggested)", /Choose a plan/);
    const short = await u.say("100", /short/);
    expect(short.text).toContain(
      "Your balance is Rs 150 and this order costs Rs 162.40: Rs 12.40 short.",
    );
    expect(await ts.system.orders.listByUser(u.id, 5)).toEqual([]);
    expect(await balance(u)).toMatchObject({ postedPaisa: 15_000, heldPaisa: 0 });
  });
});
