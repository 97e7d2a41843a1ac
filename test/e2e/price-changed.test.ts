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
    // The refused Confirm's reservation was taken back: the day counts the one order.
    const { limits } = ts.system.deps;
    const room = await limits.headroom(u.id);
    expect(room.spendLeftPaisa).toBe(limits.terms.dailyCapPaisa - 16_800);
  });
});
