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
 * The price changes between the confirmation and Confirm (review s24-i, 2): a deploy with a new
 * schedule or rate, while the conversation (and its logged figures) survives. The hold must never
 * take a figure the customer did not see: Confirm says the price changed and shows the
 * confirmation again at the new figures. Here the schedule the running process prices with is
 * changed in place between the two (what a restart with a new prices.json does to the next tap).
 */
describe("a price changed since the confirmation is not held", () => {
  const ts = usePricedSystem({ schedule: INDIA_FEE_150, inrRate: "1.6" });

  it("refuses the old figures, shows the new ones, and holds what was confirmed then", async () => {
    const u = await fundedUser(ts, 24_921);
    await indiaAmountQuestion(u, "9810012345");
    const first = await u.say("100", /Please check/);
    expect(first.text).toContain("Rs 162.40");
    // The new price list: a fee of ₹5 instead of ₹1.50.
    setIndiaFee(ts, 500);
    const again = await u.tap("✅ Confirm", /Please check/);
    expect(u.botTexts().some((t) => /The price changed/.test(t))).toBe(true);
    expect(again.text).toContain("Total: ₹105");
    expect(again.text).toContain("Rs 168");
    expect((await ts.system.ledger.balance(account.customer(u.id))).heldPaisa).toBe(0);
    const { ref } = await u.confirm();
    const order = await ts.system.orders.get(ref);
    expect(order?.exchange?.totalPaisa).toBe(16_800);
    // Held, or taken once the order succeeded: the Rs 168 confirmed last, nothing more.
    const after = await ts.system.ledger.balance(account.customer(u.id));
    expect(after.availablePaisa).toBe(500_000 - 16_800);
    // The refused Confirm reserved nothing (the figures are compared before the cap reserves; a
    // reservation place refused would be taken back): the day counts the one order.
    const { limits } = ts.system.deps;
    const room = await limits.headroom(u.id);
    expect(room.spendLeftPaisa).toBe(limits.terms.dailyCapPaisa - 16_800);
  });
});

/**
 * The fee and the discount change together between the confirmation and Confirm, the total the
 * same (review s25-b, note 1): Confirm compared only the totals, so the order was placed with a
 * fee the confirmation never showed, and the receipt and the books' fee income said Rs 10 where
 * the customer had agreed to Rs 5. Now every line shown counts: "the price changed".
 */
describe("a fee changed since the confirmation, the total the same", () => {
  const ts = usePricedSystem({ schedule: { default: { fee: { flat: "5" } } } });

  it("says the price changed and shows the new lines; the order carries what was confirmed", async () => {
    const u = await fundedUser(ts, 24_922);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    await u.say("9841000922", /How much/);
    const first = await u.say("100", /Please check/);
    expect(first.text).toContain("Fee: Rs 5");
    expect(first.text).toContain("Rs 105");
    // The new price list: a fee of Rs 10 and a discount of Rs 5, still Rs 105 in all.
    const { schedule } = ts.system.config.pricing;
    schedule.default.fee = { kind: "flat", paisa: 1_000 };
    schedule.default.discount = { kind: "flat", paisa: 500 };
    const again = await u.tap("✅ Confirm", /Please check/);
    expect(u.botTexts().some((t) => /The price changed/.test(t))).toBe(true);
    expect(again.text).toContain("Fee: Rs 10");
    expect(again.text).toContain("Discount: −Rs 5");
    expect((await ts.system.ledger.balance(account.customer(u.id))).heldPaisa).toBe(0);
    const { ref } = await u.confirm();
    const order = await ts.system.orders.get(ref);
    expect(order?.price).toMatchObject({ feePaisa: 1_000, discountPaisa: 500, totalPaisa: 10_500 });
  });
});
