import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/** The landline flow end to end: emulator -> bot -> orders -> sandbox -> webhook -> notifier. */
describe("landline recharge, end to end", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem();
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  const ledgerFor = (ref: string) =>
    ts.system.sandbox!.ledger(ts.system.config.sandbox.token).filter((r) => r.referenceNo === ref);
  const refOf = (text: string) => /Order (\d+)/.exec(text)?.[1] ?? "";

  it("recharges an NTC landline and pushes the success; the number is offered next time", async () => {
    const u = ts.user(501);
    await u.say("/recharge", /What would you like to pay/);
    const ops = await u.tap("☎️ Landline", /Which line do you want to recharge/);
    expect(u.buttons(ops)).toEqual([
      "NTC Landline",
      "NTC Fibre Voice",
      "NTC Toll-free",
      "✖ Cancel",
    ]);
    await u.tap(
      "NTC Landline",
      /Which NTC Landline number\? Type its 9 digits without the leading 0/,
    );
    // The trunk 0 is dropped by the catalogue's normaliser.
    const amount = await u.say("014-123 4567", /How much\? Type an amount from Rs 50 to Rs 5,000/);
    expect(u.buttons(amount)).toEqual(["Rs 100", "Rs 200", "Rs 500", "Rs 1,000", "✖ Cancel"]);
    const confirm = await u.tap("Rs 500", /Please check your order/);
    expect(confirm.text).toContain("Operator: NTC Landline");
    expect(confirm.text).toContain("Number / account: 141234567");
    expect(confirm.text).toContain("Amount: Rs 500");
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = refOf(receipt.text);
    const push = await u.waitFor(new RegExp(`Order ${ref} succeeded`));
    expect(push.text).toContain("NTC Landline · 141234567 · Rs 500");

    const order = await ts.system.orders.get(ref);
    expect(order).toMatchObject({
      status: "success",
      category: "landline",
      region: "np",
      operatorId: 11,
      operatorTypeId: 4,
      connectionNo: "141234567",
      amountPaisa: 50_000,
      userId: 501,
    });
    expect(ledgerFor(ref)).toMatchObject([
      { connectionNo: "141234567", amountPaisa: 50_000, status: "success" },
    ]);

    // Next time the saved landline is a button (mobile numbers would not be).
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("☎️ Landline", /Which line/);
    const ask = await u.tap("NTC Fibre Voice", /Which NTC Fibre Voice number/);
    expect(u.buttons(ask)).toEqual(["141234567", "✖ Cancel"]);
    await u.tap("✖ Cancel", /Cancelled/);
  });

  it("tells the user when the operator fails the recharge", async () => {
    const u = ts.user(502);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("☎️ Landline", /Which line/);
    await u.tap("NTC Fibre Voice", /Which NTC Fibre Voice number/);
    await u.say("512340000", /How much/);
    const confirm = await u.say("750", /Please check your order/);
    expect(confirm.text).toContain("Operator: NTC Fibre Voice");
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = refOf(receipt.text);
    const push = await u.waitFor(new RegExp(`Order ${ref} failed`));
    expect(push.text).toContain("Nothing was charged");
    expect(push.text).toMatch(/Reason: .+/);
    const order = await ts.system.orders.get(ref);
    expect(order).toMatchObject({
      status: "failed",
      operatorId: 17,
      connectionNo: "512340000",
      amountPaisa: 75_000,
    });
  });

  it("re-asks with a reason at every step and keeps earlier answers", async () => {
    const u = ts.user(503);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("☎️ Landline", /Which line/);
    await u.say("toll free", /Please choose one of the buttons/);
    await u.tap("NTC Toll-free", /Which NTC Toll-free number/);
    expect((await u.say("12345", /5 digits; it needs exactly 9/)).text).toContain(
      "Please try again",
    );
    await u.say("01234567", /must not start with 0/);
    await u.say("41-abc", /Please use digits only/);
    await u.say("4155512345", /10 digits; it needs exactly 9/);
    u.emu.sendSticker(503);
    await u.waitFor(/Please answer with a text message/);
    await u.say("415551234", /How much/);
    await u.say("20", /smallest amount is Rs 50/);
    await u.say("6000", /largest amount is Rs 5,000/);
    await u.say("lots", /Please type an amount in rupees/);
    const confirm = await u.say("Rs 1,250", /Please check your order/);
    expect(confirm.text).toContain("Operator: NTC Toll-free");
    expect(confirm.text).toContain("Number / account: 415551234");
    expect(confirm.text).toContain("Amount: Rs 1,250");
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = refOf(receipt.text);
    await u.waitFor(new RegExp(`Order ${ref} succeeded`));
    const orders = await ts.system.orders.listByUser(503, 10);
    expect(orders.map((o) => [o.operatorId, o.connectionNo, o.amountPaisa, o.status])).toEqual([
      [117, "415551234", 125_000, "success"],
    ]);
  });
});
