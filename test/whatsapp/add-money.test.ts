import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import { waCustomer, waPerson } from "../support/whatsapp-steps.ts";

/**
 * Adding money on WhatsApp (issue 30, no dead ends): WhatsApp's reply buttons and lists carry no
 * URL, so the "Pay with Khalti" link a Telegram chat gets as a button is written in the message's
 * text, where it is tappable; paying it credits the same account.
 */
describe("WhatsApp: /addmoney gives the Khalti link in the text", () => {
  const ts = useTestSystem({ env: { ACCESS_MODE: "prepaid" } });

  it("answers the amount with the checkout link a customer can tap", async () => {
    const u = waCustomer(ts, "9779841000601");
    await u.say("addmoney", /How much do you want to add/);
    const checkout = await u.say("500", /Pay with Khalti/);
    const url = /Pay with Khalti: (\S+)/.exec(checkout.text)?.[1];
    expect(url).toBeDefined();
    const pidx = new URL(url!).searchParams.get("pidx")!;
    expect(url).toBe(`${ts.system.url}/khalti/pay?pidx=${pidx}`);
    expect(await ts.system.topUps!.get(pidx)).toMatchObject({
      userId: waPerson("9779841000601"),
      amountPaisa: 50_000,
      status: "initiated",
    });
  });
});
