import { describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import {
  fundedUser,
  INDIA_FEE_150,
  indiaAmountQuestion,
  setIndiaFee,
  usePricedSystem,
} from "../support/pricing-rig.ts";

/**
 * The daily cap counts what the balance pays, fee included, so every amount question offers what
 * fits with its fee (review s24-l, 2: the Nepal questions offered "up to Rs 500" under a Rs 500
 * cap with a Rs 5 fee, and 500 was then refused as "today's limit reached" with nothing spent).
 */
describe("a Nepal amount question under the cap leaves room for the fee", () => {
  const ts = usePricedSystem({ schedule: { default: { fee: { flat: "5" } } }, dailyCap: "500" });

  it("mobile: offers up to Rs 495, and Rs 495 reaches the confirmation at Rs 500", async () => {
    const u = await fundedUser(ts, 24_951);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    const q = await u.say("9841000951", /How much/);
    expect(q.text).toContain("to Rs 495");
    const c = await u.say("495", /Please check/);
    expect(c.text).toContain("Rs 500");
  });

  it("landline: offers up to Rs 495", async () => {
    const u = await fundedUser(ts, 24_952);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("☎️ Landline", /./);
    await u.tap("NTC Landline", /NTC Landline/);
    const q = await u.say("014-123 4567", /How much\?/);
    expect(q.text).toContain("Rs 495");
    await u.say("495", /Please check/);
  });

  it("a bill's advance: up to Rs 495, and ₹400 is re-asked, not read as Rs 400", async () => {
    const u = await fundedUser(ts, 24_953);
    await u.menu("💡 Electricity bill", /which distribution centre/);
    await u.tap("Baneshwor DC", /Your SC number/);
    await u.say("777.01", /Your customer id/);
    await u.say("12347777", /A phone number/);
    await u.say("9851234567", /Electricity bill of/);
    const ask = await u.waitFor(/You can pay in advance/);
    expect(ask.text).toContain("up to Rs 495");
    const refused = await u.say("₹400", /asked in Nepal rupees/);
    expect(refused.text).toContain("without ₹");
    const c = await u.say("495", /Please check/);
    expect(c.text).toContain("Amount: Rs 495");
  });
});

/**
 * A price changed between the confirmation and Confirm, when the cap narrowed the India amount
 * question (review s24-l, 1): the narrowed bounds are replayed from the log, so Confirm says the
 * price changed (before: "Bad replay" and "Something went wrong", the conversation lost).
 */
describe("a price change under a narrowed India amount question", () => {
  const ts = usePricedSystem({ schedule: INDIA_FEE_150, inrRate: "1.6", dailyCap: "1000" });

  it("Confirm says the price changed, then the cap refuses the new price; no Bad replay, nothing held", async () => {
    const u = await fundedUser(ts, 24_954);
    const q = await indiaAmountQuestion(u, "9810012345");
    expect(q.text).toContain("to ₹623");
    const first = await u.say("623", /Please check/);
    expect(first.text).toContain("Rs 999.20");
    setIndiaFee(ts, 500);
    // ₹628 is Rs 1,004.80 now: over the cap. The change is said first (before: only "today's
    // limit reached", for an order that fitted when shown), then the order at the new price is
    // refused by the cap before any confirmation is shown: nothing reserved, nothing held.
    const refused = await u.tap("✅ Confirm", /limit|went wrong/);
    const said = u.botTexts();
    const changedAt = said.findIndex((t) => /The price changed/.test(t));
    expect(changedAt).toBeGreaterThanOrEqual(0);
    expect(said.indexOf(refused.text)).toBeGreaterThan(changedAt);
    expect(refused.text).toContain("today's limit of Rs 1,000");
    expect(u.botTexts().join("\n")).not.toMatch(/Something went wrong/);
    expect(ts.logs.join("\n")).not.toMatch(/Bad replay/);
    expect((await ts.system.ledger.balance(account.customer(u.id))).heldPaisa).toBe(0);
    expect(await ts.system.deps.orders.listByUser(u.id, 5)).toEqual([]);
    const { limits } = ts.system.deps;
    expect((await limits.headroom(u.id)).spendLeftPaisa).toBe(100_000);
  });
});
