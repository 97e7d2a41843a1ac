import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import {
  availableOf,
  confirmUntil,
  fundAgent,
  linkWhatsAppTo,
  openCategory,
  waCustomer,
} from "../support/whatsapp-steps.ts";

const AGENT = 12_001;
const TG = 12_002;
const PHONE = "9779800012002";

/**
 * One person, one account: a customer registered on Telegram with a phone is the same customer
 * when that phone writes on WhatsApp (balance, history, saved numbers) once the WhatsApp chat typed
 * the code sent to the Telegram chat, and a cash-in an agent makes to the phone is theirs on both
 * channels.
 */
describe("WhatsApp and Telegram: one account per phone", () => {
  const ts = useTestSystem({ env: { ACCESS_MODE: "prepaid", AGENT_IDS: String(AGENT) } });

  it("shares the balance, the history and the saved numbers, and a cash-in shows on both", async () => {
    const tg = ts.user(TG);
    await tg.register(PHONE);
    await tg.credit(100_000);
    const wa = waCustomer(ts, PHONE, "Ram");
    // Joined with the code sent to the Telegram chat (the number alone joins nothing).
    await linkWhatsAppTo(wa, tg);
    await wa.say("balance", /Your balance: Rs 1,000/);

    // A landline paid on WhatsApp is the Telegram customer's order, from their balance.
    await openCategory(wa, /Landline/, /Which line do you want to recharge/);
    await wa.tap("NTC Landline", /Which NTC Landline number/);
    await wa.say("014-123 4567", /How much\?/);
    await wa.tap("Rs 500", /Please check your order/);
    const { ref } = await confirmUntil(wa, "succeeded");
    expect(await ts.system.orders.get(ref)).toMatchObject({ userId: TG, status: "success" });
    expect(await availableOf(ts, TG)).toBe(50_000);
    await tg.say("/balance", /Your balance: Rs 500/);
    await tg.say("/history", /NTC Landline · 141234567 · ✅ successful\nTotal: Rs 500/);
    // Telegram offers the number saved on WhatsApp.
    await tg.menu("☎️ Landline", /Which line/);
    const ask = await tg.tap("NTC Fibre Voice", /Which NTC Fibre Voice number/);
    expect(tg.buttons(ask)).toContain("141234567");
    await tg.tap("✖ Cancel", /Cancelled/);

    // An agent cashes in Rs 300 to the phone: both channels see Rs 800.
    await fundAgent(ts, AGENT, "wa-test-agent-float");
    const agent = ts.user(AGENT);
    await agent.say("/cashin", /customer's phone number/);
    await agent.say(PHONE.slice(3), /How much cash/);
    await agent.say("300", /Add Rs 300 to the balance of/);
    await agent.tap("✅ Confirm", /Cash-in done: Rs 300/);
    await tg.waitFor(/Rs 300 was added to your balance/);
    await wa.say("balance", /Your balance: Rs 800/);
    await tg.say("/balance", /Your balance: Rs 800/);
    await wa.say("history", /NTC Landline · 141234567 · ✅ successful\nTotal: Rs 500/);
  });
});
