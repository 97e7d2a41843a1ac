import { describe, expect, it } from "vitest";
import { useTopUpSystem } from "../support/topup-system.ts";

/**
 * "Leave this order?" pressed after its order was confirmed from the confirmation above (review
 * s33-rvtruth 2): the question's flow ended with the Confirm, so the press ends nothing; the
 * question must not be edited to "Left. Nothing was charged." while the order is placed and its
 * money held or paid. A Leave its flow sees still says "Nothing was charged." Prepaid, so the
 * order's money is the customer's.
 */
describe.each([
  ["memory", false],
  ["redis", true],
])("Leave after the order was confirmed (%s)", (_name, redis) => {
  const sys = useTopUpSystem(redis);

  it("a stale Leave says nothing was left, not 'nothing was charged'", async () => {
    const u = sys.ts().user(3391);
    await u.register();
    await u.credit(50_000);
    const confirm = await u.mobileToConfirm("9841233391", "150");
    const question = await u.say("/saved", /Leave this order\?/);
    // Confirm on the confirmation above the question: placed, Rs 150 taken from the balance.
    let after = u.lastId();
    u.emu.clickButton(u.id, "✅ Confirm", { messageId: confirm.id });
    await u.emu.waitForBotMessage(u.id, /Order \d+/, { afterId: after });
    await u.waitFor(/succeeded/);
    expect(await sys.balance(3391)).toBe(35_000);
    // Then Leave on the question: /saved runs, and the question says what is true.
    after = u.lastId();
    u.emu.clickButton(u.id, "🚪 Leave", { messageId: question.id });
    await u.emu.waitForBotMessage(u.id, /saved numbers/, { afterId: after });
    const edited = u.chat().find((m) => m.id === question.id);
    expect(edited?.text).not.toContain("Nothing was charged");
    expect(edited?.text).toContain("an order confirmed there goes on");
    expect(await sys.balance(3391)).toBe(35_000);
  });

  it("a Leave its flow sees still says 'Left. Nothing was charged.'", async () => {
    const u = sys.ts().user(3392);
    await u.register();
    await u.credit(50_000);
    await u.mobileToConfirm("9841233392", "150");
    const question = await u.say("/saved", /Leave this order\?/);
    const after = u.lastId();
    u.emu.clickButton(u.id, "🚪 Leave", { messageId: question.id });
    await u.emu.waitForBotMessage(u.id, /saved numbers/, { afterId: after });
    expect(u.chat().find((m) => m.id === question.id)?.text).toBe("Left. Nothing was charged.");
    expect(await sys.balance(3392)).toBe(50_000);
  });
});
