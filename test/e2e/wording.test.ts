import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";

/**
 * Issue 30's wording, as the chat reads it: /start offers a menu only where it shows one; a
 * top-up and a cash-in name themselves when the chat asks to leave them or cancels them (a
 * top-up is no order, and an agent cancelling a cash-in is not sent to /recharge); an order still
 * asks "Leave this order?". In English, Nepali and Hindi.
 */
const AGENT = 3041; // not 3001: the playground's admin
const AGENT_HI = 3042;

describe("issue 30's wording, end to end", () => {
  const ts = useTestSystem({
    env: { ACCESS_MODE: "prepaid", AGENT_IDS: `${AGENT},${AGENT_HI}` },
  });

  describe("/start", () => {
    it("offers no menu to someone who must register first, since it shows none", async () => {
      const u = ts.user(3010, { first_name: "Sita" });
      const start = await u.say("/start", /register with your own phone number/);
      expect(start.text).toContain("Namaste Sita!");
      expect(start.text).not.toContain("Choose what you want to pay");
      expect(start.inlineKeyboard ?? []).toEqual([]);

      const ne = ts.user(3011, { language_code: "ne" });
      const neStart = await ne.say("/start", /नमस्ते/);
      expect(neStart.text).not.toContain("के तिर्ने हो छान्नुहोस्");
      const hi = ts.user(3012, { language_code: "hi" });
      const hiStart = await hi.say("/start", /नमस्ते/);
      expect(hiStart.text).not.toContain("क्या भरना है चुनिए");
    });

    it("says 'Choose what you want to pay' above the menu it shows", async () => {
      const u = ts.user(3013, { first_name: "Ram" });
      await u.register();
      const start = await u.say("/start", /Namaste Ram!/);
      expect(start.text).toMatch(/\nChoose what you want to pay, or send \/help\.$/);
      expect(start.inlineKeyboard?.flat().map((b) => b.text)).toContain("📱 Mobile top-up");
    });
  });

  describe("/addmoney", () => {
    it("asks to stop adding money, not to leave an order, and its Cancel sends to /addmoney", async () => {
      const u = ts.user(3020);
      await u.say("/addmoney", /How much do you want to add/);
      const leave = await u.say("/recharge", /Stop adding money to your balance\?/);
      expect(leave.text).toBe("Stop adding money to your balance? Nothing has been paid yet.");
      expect(u.buttons(leave)).toEqual(["↩ Keep", "🚪 Leave"]);
      await u.tap("↩ Keep", /How much do you want to add/);
      const cancelled = await u.say("/cancel", /Cancelled\./);
      expect(cancelled.text).toBe(
        "Cancelled. Nothing was added and nothing was paid. Send /addmoney to add money.",
      );
    });

    it("in Nepali and Hindi too", async () => {
      const ne = ts.user(3021, { language_code: "ne" });
      await ne.say("/addmoney", /कति थप्ने/);
      await ne.say("/recharge", /मौज्दातमा रकम थप्ने काम छोड्ने\?/);
      await ne.tap("↩ जारी राख्ने");
      expect((await ne.say("/cancel", /रद्द गरियो/)).text).toContain("/addmoney");
      const hi = ts.user(3022, { language_code: "hi" });
      await hi.say("/addmoney");
      await hi.say("/recharge", /बैलेंस में पैसे जोड़ना छोड़ दें\?/);
    });
  });

  describe("/cashin", () => {
    it("asks to leave the cash-in, and its Cancel speaks of the cash-in, not /recharge", async () => {
      const agent = ts.user(AGENT);
      await agent.say("/cashin", /customer's phone number/);
      const leave = await agent.say("/recharge", /Leave this cash-in\?/);
      expect(leave.text).not.toMatch(/order/i);
      await agent.tap("↩ Keep", /customer's phone number/);
      const cancelled = await agent.say("/cancel", /Cash-in cancelled/);
      expect(cancelled.text).toBe(
        "Cash-in cancelled. Nothing was moved: no balance changed. Send /cashin to start again.",
      );
      expect(cancelled.text).not.toContain("/recharge");
    });

    it("in Hindi too", async () => {
      const agent = ts.user(AGENT_HI, { language_code: "hi" });
      await agent.say("/cashin");
      const cancelled = await agent.say("/cancel", /नकद जमा रद्द/);
      expect(cancelled.text).toContain("/cashin");
      expect(cancelled.text).not.toContain("/recharge");
    });
  });

  it("an order still asks 'Leave this order?'", async () => {
    const u = ts.user(3030);
    await u.register();
    await u.credit(100_000);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    const leave = await u.say("/addmoney", /Leave this order\?/);
    expect(u.buttons(leave)).toEqual(["↩ Keep", "🚪 Leave"]);
    await u.tap("↩ Keep", /Which mobile number/);
    expect((await u.say("/cancel", /Cancelled\./)).text).toContain("/recharge");
  });
});
