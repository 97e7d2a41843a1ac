import { afterEach, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * Issue 30, "nothing is answered with silence": after the idle notice the first /cancel is
 * answered; the notice names the flow the user was in (/addmoney, /cashin), not /recharge; /credit
 * and /reverse have Cancel and Leave words of their own.
 */
describe("no silence after an idle timeout, and every flow's own words", () => {
  let ts: TestSystem | undefined;
  afterEach(async () => {
    await ts?.cleanup();
    ts = undefined;
  });

  it("a timed-out /addmoney names /addmoney, and the /cancel that follows is answered", async () => {
    ts = await startTestSystem({ env: { ACCESS_MODE: "prepaid", CONVERSATION_IDLE_MS: "1000" } });
    const u = ts.user(3001);
    await u.register();
    await u.say("/addmoney", /How much do you want to add/);
    const notice = await u.waitFor(/ended after/, 6000);
    expect(notice.text).toBe(
      "Your previous request ended after 1 second without an answer. Nothing was charged. Send /addmoney to start again.",
    );
    expect(notice.text).not.toContain("/recharge");
    // The flow is over: /cancel says there is nothing to cancel (it used to get no answer at all).
    const answer = await u.say("/cancel", /./);
    expect(answer.text).toBe("There is nothing to cancel.");
  });

  it("a text typed after the notice is answered too, and a Mobile flow's notice still offers Start again", async () => {
    ts = await startTestSystem({ env: { CONVERSATION_IDLE_MS: "1000" } });
    const u = ts.user(3002);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    const notice = await u.waitFor(/ended after/, 6000);
    expect(u.buttons(notice)).toEqual(["🔁 Start again"]);
    const answer = await u.say("hello", /./);
    expect(answer.text).not.toMatch(/Operator for|Which mobile number/);
  });

  it("/credit and /reverse say what was cancelled and how to start again", async () => {
    ts = await startTestSystem({
      env: { ACCESS_MODE: "prepaid", AGENT_IDS: "3011", ADMIN_IDS: "3010" },
    });
    const admin = ts.user(3010);
    await admin.say("/credit", /Credit which agent/);
    expect((await admin.say("/status", /Leave this credit\?/)).text).toBe(
      "Leave this credit? Nothing has been moved yet.",
    );
    expect((await admin.tap("✖ Cancel", /cancelled/)).text).toBe(
      "Credit cancelled. Nothing was moved: no balance changed. Send /credit to start again.",
    );
    await admin.say("/reverse", /Which receipt/);
    expect((await admin.say("/cancel", /cancelled/)).text).toBe(
      "Reversal cancelled. Nothing was moved: no balance changed. Send /reverse to start again.",
    );
  });
});
