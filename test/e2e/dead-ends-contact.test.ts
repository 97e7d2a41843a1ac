import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";

/**
 * Issue 30: a contact shared at any time registers, mid-flow too (it used to be thrown away with
 * "Please answer with a text message"), and the question keeps waiting with every answer kept.
 */
describe("a contact shared while a flow waits registers", () => {
  const ts = useTestSystem({ env: { ACCESS_MODE: "prepaid" } });

  it("during /addmoney: registered, and the amount question still takes its answer", async () => {
    const u = ts.user(3101);
    await u.say("/addmoney", /How much do you want to add/);
    const { message_id } = u.emu.sendContact(u.id, { phoneNumber: `+${u.phone()}` });
    const done = await u.emu.waitForBotMessage(u.id, /./, { afterId: message_id });
    expect(done.text).toMatch(/^✅ Registered with /);
    expect(u.botTexts().join("\n")).not.toContain("Please answer with a text message");
    expect(await ts.system.deps.accounts.phoneOf(3101)).not.toBeNull();
    // The flow goes on where it was.
    await u.say("200", /Pay with Khalti/);
  });

  it("someone else's contact mid-flow is refused with the share button, and the flow goes on", async () => {
    const u = ts.user(3102);
    await u.say("/addmoney", /How much do you want to add/);
    const { message_id } = u.emu.sendContact(u.id, { phoneNumber: "+9779800000001", userId: 42 });
    const refused = await u.emu.waitForBotMessage(u.id, /./, { afterId: message_id });
    expect(refused.text).toMatch(/^That is not your own contact/);
    expect(u.buttons(refused)).toEqual([]);
    expect(await ts.system.deps.accounts.phoneOf(3102)).toBeNull();
    await u.say("150", /Pay with Khalti/);
  });
});
