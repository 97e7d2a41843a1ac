import { describe, expect, it } from "vitest";
import { expectFailurePush, expectParts } from "../support/chat.ts";
import { ledgerFor, useTestSystem } from "../support/system.ts";

/** The landline flow end to end: emulator -> bot -> orders -> sandbox -> webhook -> notifier. */
describe("landline recharge, end to end", () => {
  const ts = useTestSystem();

  it("recharges an NTC landline and pushes the success; the number is offered next time", async () => {
    const u = ts.user(501);
    const ops = await u.menu("☎️ Landline", /Which line do you want to recharge/);
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
    expect(u.buttons(amount)).toEqual([
      "Rs 100",
      "Rs 200",
      "Rs 500",
      "Rs 1,000",
      "‹ Back",
      "✖ Cancel",
    ]);
    const confirm = await u.tap("Rs 500", /Please check your order/);
    expectParts(confirm.text, [
      "Operator: NTC Landline",
      "Number / account: 141234567",
      "Amount: Rs 500",
    ]);
    const { ref, push } = await u.confirmUntil("succeeded");
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
    expect(ledgerFor(ts, ref)).toMatchObject([
      { connectionNo: "141234567", amountPaisa: 50_000, status: "success" },
    ]);

    // Next time the saved landline is a button (mobile numbers would not be).
    await u.menu("☎️ Landline", /Which line/);
    const ask = await u.tap("NTC Fibre Voice", /Which NTC Fibre Voice number/);
    expect(u.buttons(ask)).toEqual(["141234567", "‹ Back", "✖ Cancel"]);
    await u.tap("✖ Cancel", /Cancelled/);
  });

  it("tells the user when the operator fails the recharge", async () => {
    const u = ts.user(502);
    await u.menu("☎️ Landline", /Which line/);
    await u.tap("NTC Fibre Voice", /Which NTC Fibre Voice number/);
    await u.say("512340000", /How much/);
    const confirm = await u.say("750", /Please check your order/);
    expect(confirm.text).toContain("Operator: NTC Fibre Voice");
    const { ref, push } = await u.confirmUntil("failed");
    expectFailurePush(push);
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
    await u.menu("☎️ Landline", /Which line/);
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
    expectParts(confirm.text, [
      "Operator: NTC Toll-free",
      "Number / account: 415551234",
      "Amount: Rs 1,250",
    ]);
    await u.confirmUntil("succeeded");
    const orders = await ts.system.orders.listByUser(503, 10);
    expect(orders.map((o) => [o.operatorId, o.connectionNo, o.amountPaisa, o.status])).toEqual([
      [117, "415551234", 125_000, "success"],
    ]);
  });
});
