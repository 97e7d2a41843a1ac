import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/** The mobile top-up flow end to end: emulator -> bot -> orders -> sandbox -> webhook -> notifier. */
describe("mobile top-up, end to end", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem();
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  const sandboxToken = () => ts.system.config.sandbox.token;

  it("recharges an NTC prepaid number and pushes the success", async () => {
    const u = ts.user(101);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    const op = await u.say("+977 984-123-4567", /Operator for 9841234567/);
    expect(u.buttons(op)).toContain("✓ NTC Prepaid (detected)");
    await u.tap("✓ NTC Prepaid (detected)", /How much\?/);
    const confirm = await u.say("Rs 150", /Please check your order/);
    expect(confirm.text).toContain("Operator: NTC Prepaid");
    expect(confirm.text).toContain("Number / account: 9841234567");
    expect(confirm.text).toContain("Amount: Rs 150");
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1];
    expect(ref).toBeDefined();
    const push = await u.waitFor(new RegExp(`Order ${ref} succeeded`));
    expect(push.text).toContain("NTC Prepaid · 9841234567 · Rs 150");
    // The receipt was edited in place to the final status.
    await u.waitFor((m) => m.id === receipt.id && /successful/.test(m.text));

    const order = await ts.system.orders.get(ref!);
    expect(order?.status).toBe("success");
    expect(order?.amountPaisa).toBe(15000);
    expect(order?.userId).toBe(101);
    const ledger = ts.system.sandbox!.ledger(sandboxToken()).filter((r) => r.referenceNo === ref);
    expect(ledger).toHaveLength(1);
  });

  it("tells the user when the operator fails the recharge", async () => {
    const u = ts.user(102);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    await u.say("9861230000", /Operator for/);
    await u.tap(/detected/, /How much/);
    await u.say("100", /Please check your order/);
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1];
    const push = await u.waitFor(new RegExp(`Order ${ref} failed`));
    expect(push.text).toContain("Nothing was charged");
    expect(push.text).toMatch(/Reason: .+/);
    expect((await ts.system.orders.get(ref!))?.status).toBe("failed");
  });

  it("re-asks with a reason at every step and keeps earlier answers", async () => {
    const u = ts.user(103);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    expect((await u.say("12345", /5 digits; it needs exactly 10/)).text).toContain(
      "Please try again",
    );
    await u.say("9801234567", /That is an Ncell number/);
    await u.say("9611234567", /SmartCell/);
    u.emu.sendSticker(103);
    await u.waitFor(/Please answer with a text message/);
    await u.say("9841112222", /Operator for 9841112222/);
    await u.say("prepaid please", /Please choose one of the buttons/);
    // Override with an operator the number cannot belong to: explained, then the number is asked again.
    await u.tap("NTC Postpaid", /does not belong to this operator/);
    await u.waitFor(/Which mobile number/);
    await u.say("9841112222", /Operator for 9841112222/);
    await u.tap(/detected/, /How much/);
    await u.say("20", /smallest amount is Rs 50/);
    await u.say("5000", /largest amount is Rs 3,000/);
    await u.say("lots", /Please type an amount in rupees/);
    const confirm = await u.say("३००", /Please check your order/);
    expect(confirm.text).toContain("9841112222");
    expect(confirm.text).toContain("Rs 300");
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1];
    await u.waitFor(new RegExp(`Order ${ref} succeeded`));
    const orders = await ts.system.orders.listByUser(103, 10);
    expect(orders.map((o) => [o.connectionNo, o.amountPaisa, o.status])).toEqual([
      ["9841112222", 30000, "success"],
    ]);
  });

  it("cancels at any step with the button or /cancel, and nothing is ordered", async () => {
    const u = ts.user(104);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    await u.say("9841234500", /Operator for/);
    await u.tap("✖ Cancel", /Cancelled. Nothing was charged/);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    await u.say("/cancel", /Cancelled/);
    await u.say("9841234500", /I did not understand/);
    expect(await ts.system.orders.listByUser(104, 10)).toEqual([]);
  });

  it("places one order for a double tap on Confirm", async () => {
    const u = ts.user(105);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    await u.say("9761234567", /Operator for/);
    await u.tap(/detected/, /How much/);
    const confirm = await u.say("200", /Please check your order/);
    // Two taps before the bot has answered either: the second is a stale button by then.
    u.emu.pressButton(105, confirm.id, "ok");
    u.emu.pressButton(105, confirm.id, "ok", { force: true });
    const receipt = await u.waitFor(/Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1];
    await u.waitFor(new RegExp(`Order ${ref} succeeded`));
    expect(await ts.system.orders.listByUser(105, 10)).toHaveLength(1);
    const refs = ts.system
      .sandbox!.ledger(sandboxToken())
      .filter((r) => r.connectionNo === "9761234567");
    expect(refs).toHaveLength(1);
    expect(u.emu.callbackAnswers().some((a) => a.text === "This button is no longer active.")).toBe(
      true,
    );
  });
});
