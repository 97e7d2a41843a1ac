import { describe, expect, it } from "vitest";
import { expectParts, refOf } from "../support/chat.ts";
import { ledgerFor, sandboxLedger, useTestSystem } from "../support/system.ts";

/** The mobile top-up flow end to end: emulator -> bot -> orders -> sandbox -> webhook -> notifier. */
describe("mobile top-up, end to end", () => {
  const ts = useTestSystem();

  it("recharges an NTC prepaid number and pushes the success", async () => {
    const u = ts.user(101);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    // 984 is NTC Prepaid's series: taken without a tap, and named above the amount question.
    const amount = await u.say("+977 984-123-4567", /How much\?/);
    expect(amount.text.split("\n")[0]).toBe("📱 9841234567 · NTC Prepaid");
    const confirm = await u.say("Rs 150", /Please check your order/);
    expectParts(confirm.text, [
      "Operator: NTC Prepaid",
      "Number / account: 9841234567",
      "Amount: Rs 150",
    ]);
    const { receipt, ref, push } = await u.confirmUntil("succeeded");
    expect(ref).toMatch(/^\d+$/);
    expect(push.text).toContain("NTC Prepaid · 9841234567 · Rs 150");
    // The receipt was edited in place to the final status.
    await u.waitFor((m) => m.id === receipt.id && /successful/.test(m.text));

    const order = await ts.system.orders.get(ref);
    expect(order?.status).toBe("success");
    expect(order?.amountPaisa).toBe(15000);
    expect(order?.userId).toBe(101);
    expect(ledgerFor(ts, ref)).toHaveLength(1);
  });

  it("keeps one confirmation, edited in place, when the user types instead", async () => {
    const u = ts.user(109);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    await u.say("9841230109", /How much/);
    const confirm = await u.say("150", /Please check your order/);
    const BUTTONS = ["✅ Confirm", "✏️ Number", "✏️ Amount", "‹ Back", "✖ Cancel"];
    expect(u.buttons(confirm)).toEqual(BUTTONS);
    // Typing edits the confirmation itself (a reason on top): five tries leave one Cancel under
    // the confirmation, not five, and no other message.
    for (const typed of ["yes", "ok please", "confirm", "1", "go"]) u.emu.sendText(u.id, typed);
    const again = await u.waitFor(/^Please use the buttons below/);
    expect(again.id).toBe(confirm.id);
    expect(again.text).toContain("Please check your order");
    expect(u.buttons(again)).toEqual(BUTTONS);
    await u.tap("✖ Cancel", /Cancelled/);
    // Cancel takes the buttons off, and the reason on top that pointed at them (review s32-flows, 5).
    const since = u.botMessages().filter((m) => m.id >= confirm.id);
    expect(since.map((m) => m.text)).toEqual([confirm.text, expect.stringMatching(/^Cancelled/)]);
    expect(u.buttons(since[0]!)).toEqual([]);
    expect(await ts.system.orders.listByUser(109, 10)).toEqual([]);
  });

  it("tells the user when the operator fails the recharge", async () => {
    const u = ts.user(102);
    await u.mobileToConfirm("9861230000", "100");
    const { ref, push } = await u.confirmUntil("failed");
    expect(push.text).toContain("Nothing was charged");
    // The order was accepted ("Recharge request accepted and queued") and later failed by an event
    // with no words of its own: the reason is the plain fallback, never the acceptance message.
    expect(push.text).toContain("Reason: the operator did not complete it");
    expect(push.text).not.toContain("accepted and queued");
    const order = await ts.system.orders.get(ref);
    expect(order?.status).toBe("failed");
    expect(order?.history.some((h) => h.source === "execute" && h.status === "queued")).toBe(true);
    const shown = await u.say(`/status ${ref}`, new RegExp(`Order ${ref}\\n`));
    expect(shown.text).toContain("Status: ❌ failed");
    expect(shown.text).toContain("Reason: the operator did not complete it");
    expect(shown.text).not.toContain("accepted and queued");
  });

  it("re-asks with a reason at every step and keeps earlier answers", async () => {
    const u = ts.user(103);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    expect((await u.say("12345", /5 digits; it needs exactly 10/)).text).toContain(
      "Please try again",
    );
    await u.say("9801234567", /That is an Ncell number/);
    await u.say("9611234567", /SmartCell/);
    u.emu.sendSticker(103);
    await u.waitFor(/Please answer with a text message/);
    // A 984 number is NTC Prepaid: no operator question, so Postpaid is never offered for it.
    const amount = await u.say("9841112222", /9841112222 · NTC Prepaid\nHow much/);
    expect(u.buttons(amount)).not.toContain("NTC Postpaid");
    await u.say("20", /smallest amount is Rs 50/);
    await u.say("5000", /largest amount is Rs 3,000/);
    await u.say("lots", /Please type an amount in rupees/);
    // A comma out of place is explained, not read as Rs 2,000 (nor as Rs 20).
    await u.say("20,00", /A comma can only separate groups of digits/);
    const confirm = await u.say("३००", /Please check your order/);
    expect(confirm.text).toContain("9841112222");
    expect(confirm.text).toContain("Rs 300");
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    await u.outcome(refOf(receipt.text), "succeeded");
    const orders = await ts.system.orders.listByUser(103, 10);
    expect(orders.map((o) => [o.connectionNo, o.amountPaisa, o.status])).toEqual([
      ["9841112222", 30000, "success"],
    ]);
  });

  it("cancels at any step with the button or /cancel, and nothing is ordered", async () => {
    const u = ts.user(104);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    const amount = await u.say("9841234500", /How much/);
    await u.tap("✖ Cancel", /Cancelled. Nothing was charged/);
    const number = await u.menu("📱 Mobile top-up", /Which mobile number/);
    await u.say("/cancel", /Cancelled/);
    // Neither cancelled question keeps a button to tap (review s32-flows, 5).
    for (const q of [amount, number]) {
      const now = u.botMessages().find((m) => m.id === q.id)!;
      expect(u.buttons(now)).toEqual([]);
    }
    // Outside a flow a number typed alone starts a top-up for it (issue 30): cancelled again.
    await u.say("9841234500", /9841234500 · NTC Prepaid\nHow much/);
    await u.say("/cancel", /Cancelled/);
    expect(await ts.system.orders.listByUser(104, 10)).toEqual([]);
  });

  it("places one order for a double tap on Confirm", async () => {
    const u = ts.user(105);
    const confirm = await u.mobileToConfirm("9761234567", "200");
    // Two taps before the bot has answered either: the second is a stale button by then.
    u.emu.pressButton(105, confirm.id, "ok");
    u.emu.pressButton(105, confirm.id, "ok", { force: true });
    const receipt = await u.waitFor(/Order \d+/);
    await u.outcome(refOf(receipt.text), "succeeded");
    expect(await ts.system.orders.listByUser(105, 10)).toHaveLength(1);
    const refs = sandboxLedger(ts).filter((r) => r.connectionNo === "9761234567");
    expect(refs).toHaveLength(1);
    expect(u.emu.callbackAnswers().some((a) => a.text === "This button is no longer active.")).toBe(
      true,
    );
  });
});
