import { afterEach, describe, expect, it } from "vitest";
import { formatOrderTime } from "../../src/bot/format.ts";
import { account } from "../../src/ledger/index.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/** Wallet protection and idle conversations, as a user meets them. */
describe("per-user limits and idle conversations", () => {
  let ts: TestSystem | undefined;
  afterEach(async () => {
    await ts?.cleanup();
    ts = undefined;
  });

  const REFUSED_OR_CONFIRM = /Please check your order|limit/;
  // When the windows end, computed here: Nepal is UTC+05:45; hours are clock hours.
  const nextHour = (locale: string) =>
    formatOrderTime(Math.floor(Date.now() / 3_600_000 + 1) * 3_600_000, "np", locale);
  const nextNepalMidnight = (locale: string) => {
    const offset = 345 * 60_000;
    const day = 86_400_000;
    return formatOrderTime(
      Math.floor((Date.now() + offset) / day + 1) * day - offset,
      "np",
      locale,
    );
  };

  it("narrows the amount question to what is left today, and says the cap before asking anything", async () => {
    ts = await startTestSystem({ env: { DAILY_SPEND_CAP: "500" } });
    const u = ts.user(901);
    const first = await u.menu("📱 Mobile top-up", /Which mobile number/);
    expect(first.text).not.toContain("limit");
    await u.say("9841000901", /How much\? Type an amount from Rs 50 to Rs 500,/);
    await u.say("300", /Please check your order/);
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1];
    await u.waitFor(new RegExp(`Order ${ref} succeeded`));
    // Rs 200 is left today: the amount question says so, and more is refused with the reason.
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    const ask = await u.say("9841000901", /How much\? Type an amount from Rs 50 to Rs 200,/);
    expect(u.buttons(ask)).toEqual(["Rs 100", "Rs 200", "‹ Back", "✖ Cancel"]);
    await u.say("300", /The largest amount is Rs 200/);
    await u.say("200", /Please check your order/);
    await u.confirmUntil("succeeded");
    // All of today's cap is spent: the next flow says so before its first question.
    await u.say("/recharge", /What would you like to pay/);
    const refused = await u.tap("📱 Mobile top-up");
    // The cap and when it resets: the next midnight in Nepal.
    expect(refused.text).toBe(
      `You have reached today's limit of Rs 500 for orders. It resets at midnight: you can order again from ${nextNepalMidnight("en")}.`,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(u.botTexts().at(-1)).toBe(refused.text);
    expect(await ts.system.orders.listByUser(901, 10)).toHaveLength(2);
    // Another user has a cap of their own.
    const other = ts.user(902);
    expect((await other.mobileToConfirm("9841000902", "300", REFUSED_OR_CONFIRM)).text).toContain(
      "Please check your order",
    );
  });

  it("says the hourly count is used up before the first question, in Nepali too", async () => {
    ts = await startTestSystem({ env: { ORDERS_PER_HOUR: "1" } });
    const u = ts.user(903);
    await u.mobileToConfirm("9841000903", "100", REFUSED_OR_CONFIRM);
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1];
    await u.waitFor(new RegExp(`Order ${ref} succeeded`));
    await u.say("/recharge", /What would you like to pay/);
    const refused = await u.tap("📶 Data pack");
    // The number and when the next one may be placed: the next clock hour, in Nepal time.
    expect(refused.text).toBe(
      `You have reached your limit of orders per hour (1); the next one from ${nextHour("en")}.`,
    );
    expect(u.botTexts().join("\n")).not.toContain("Which mobile number should I find packs");
    // Cancel-free: the flow has ended; a number typed now starts nothing.
    expect(await ts.system.orders.listByUser(903, 10)).toHaveLength(1);

    const ne = ts.user(905, { language_code: "ne" });
    await ne.say("/recharge", "के तिर्न चाहनुहुन्छ?");
    await ne.tap("📱 मोबाइल टप-अप", /कुन मोबाइल नम्बर/);
    await ne.say("9841000905", /कति\?/);
    await ne.say("100", /कृपया आफ्नो अर्डर जाँच्नुहोस्/);
    await ne.tap("✅ पुष्टि", /🧾 अर्डर \d+/);
    await ne.say("/recharge", "के तिर्न चाहनुहुन्छ?");
    const neRefused = await ne.tap("📱 मोबाइल टप-अप");
    expect(neRefused.text).toBe(
      `तपाईंले प्रति घण्टा अर्डरको सीमा (1) पुर्‍याउनुभयो; अर्को ${nextHour("ne")} देखि।`,
    );
  });

  it("narrows a bill's amount to today's headroom: a due above it is explained, not offered", async () => {
    ts = await startTestSystem({ env: { DAILY_SPEND_CAP: "1000" } });
    const u = ts.user(906);
    await u.menu("🚰 Water bill", /which office/);
    await u.tap("KUKL Lalitpur", /customer id/);
    await u.say("123456", /For which month/);
    await u.tap("Baisakh", /Water bill of/);
    // The sandbox's bill for this customer is Rs 1,672.06, more than the Rs 1,000 left today.
    const ask = await u.waitFor(/more than you may still pay today \(Rs 1,000\)/);
    expect(ask.text).toContain("or type another amount (up to Rs 1,000)");
    expect(u.buttons(ask)).toEqual(["‹ Back", "✖ Cancel"]);
    await u.say("1500", /The largest amount is Rs 1,000/);
    const confirm = await u.say("1000", /Please check your order/);
    expect(confirm.text).toContain("Amount: Rs 1,000");
  });

  it("does the same in Hindi", async () => {
    ts = await startTestSystem({ env: { DAILY_SPEND_CAP: "1000" } });
    const u = ts.user(907, { language_code: "hi" });
    await u.say("/recharge", ts.system.deps.i18n.t("hi", "menu-prompt"));
    await u.tap(ts.system.deps.i18n.t("hi", "menu-water"));
    await u.tap("KUKL Lalitpur");
    await u.say("123456");
    await u.tap("बैशाख");
    const ask = await u.waitFor(/आज आपके लिए बची राशि \(रु 1,000\) से ज़्यादा है/);
    expect(u.buttons(ask)).toEqual(["‹ पीछे", "✖ रद्द करें"]);
  });

  it("counts only orders that reached the provider: one refused for the balance does not use up the hour", async () => {
    ts = await startTestSystem({
      redis: true,
      env: { ACCESS_MODE: "prepaid", ORDERS_PER_HOUR: "1", LOW_FLOAT_ALERT: "0" },
    });
    const u = ts.user(15_201);
    await u.register();
    await u.credit(15_000);
    // Rs 150 when the confirmation is shown...
    await u.mobileToConfirm("9841000921", "100");
    // ...then Rs 100 of it taken back (an admin's reversal) before the customer taps Confirm.
    const taken = await ts.system.ledger.transfer({
      id: "limits-reversal-15201",
      debit: account.customer(15_201),
      credit: account.merchant.funding,
      amountPaisa: 10_000,
      kind: "reversal",
      reason: "credited twice",
    });
    expect(taken.ok).toBe(true);
    const short = await u.tap("✅ Confirm", /Your balance is Rs 50/);
    expect(short.text).toContain("Rs 50 short");
    expect(await ts.system.orders.listByUser(15_201, 10)).toEqual([]);

    // Money added: the hour's one order is still there to place, and it reaches the provider.
    await u.credit(10_000);
    const ref = await u.placeMobile("9841000921", "100");
    await u.waitFor(new RegExp(`Order ${ref} succeeded`));
    // That one counts: the next is refused, with the limit's number and when it resets.
    await u.say("/recharge", /What would you like to pay/);
    const refused = await u.tap("📱 Mobile top-up");
    expect(refused.text).toBe(
      `You have reached your limit of orders per hour (1); the next one from ${nextHour("en")}.`,
    );
  });

  it("ends a conversation left idle with a notice, and the next /recharge starts afresh", async () => {
    ts = await startTestSystem({ env: { CONVERSATION_IDLE_MS: "1000" } });
    const u = ts.user(904);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    // The notice comes when the time runs out, naming the configured time (idle.test.ts has more).
    const notice = await u.waitFor(/ended after/, 5000);
    expect(notice.text).toBe(
      "Your previous request ended after 1 second without an answer. Nothing was charged.",
    );
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    await u.say("9841000904", /9841000904 · NTC Prepaid/);
    expect(await ts.system.orders.listByUser(904, 10)).toEqual([]);
  });
});
