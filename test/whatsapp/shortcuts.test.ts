import { describe, expect, it } from "vitest";
import { expectParts } from "../support/chat.ts";
import { useTestSystem } from "../support/system.ts";
import {
  confirmUntil,
  creditedCustomer,
  expectChatWithinLimits,
  expectPaid,
  waCustomer,
} from "../support/whatsapp-steps.ts";

const AGENT_WA = "9779841000990";

/** Issue 30's shortcuts on WhatsApp: a number sent alone, a prefilled "start r-…", a shop code. */
describe("WhatsApp: shortcuts", () => {
  const ts = useTestSystem({
    env: { ACCESS_MODE: "prepaid", AGENT_IDS: `wa:${AGENT_WA}` },
  });

  it("a number sent alone starts its top-up with the operator detected, and it is paid", async () => {
    const { u, person, before } = await creditedCustomer(ts, "9779841000301", 500_000);
    // The first message is the number: no "hi", no menu.
    const amount = await u.say("9841234567", /9841234567 · NTC Prepaid\nHow much\?/);
    expect(amount.text).not.toContain("Choose what you want to pay");
    const check = await u.say("150", /Please check your order/);
    expectParts(check.text, ["Operator: NTC Prepaid", "Number / account: 9841234567"]);
    const { ref } = await confirmUntil(u, "succeeded");
    expectChatWithinLimits(u);
    await expectPaid(ts, ref, person, before, 15_000);
  });

  it("a message prefilled by a wa.me link (start r-<number>-<amount>) comes to the confirmation", async () => {
    const { u } = await creditedCustomer(ts, "9779841000302", 500_000);
    const check = await u.say("start r-9861234567-200", /Please check your order/);
    expectParts(check.text, ["Number / account: 9861234567", "Amount: Rs 200"]);
  });

  it("an agent's /myqr on WhatsApp sends the link (no image there); a customer's start shop-… records the shop", async () => {
    const agent = waCustomer(ts, AGENT_WA, "Ram");
    const qr = await agent.say("myqr", /Your shop's QR code/);
    expect(qr.text).toContain("WhatsApp cannot carry the QR image here");
    const code = /customers send: (start shop-\d+)/.exec(qr.text)?.[1];
    expect(code).toBeDefined();
    const u = waCustomer(ts, "9779841000303", "Hari");
    await u.say(code!, /You are now a customer of this shop/);
    await agent.waitFor(/New customer through your shop's QR code: Hari, \+977 9841000303/);
  });
});
