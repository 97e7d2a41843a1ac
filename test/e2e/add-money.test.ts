import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * /addmoney in the chat (issue 17): the amount is asked (quick buttons or typed, Rs 10 up to the
 * maximum and what the daily cap leaves), bad amounts are re-asked with the reason, and the answer
 * is a "Pay with Khalti" URL button to the checkout; cancelled payments are told too.
 */
describe("/addmoney, end to end", () => {
  const ts = useTestSystem({
    env: { ACCESS_MODE: "prepaid", TOPUP_MAX_AMOUNT: "2000", TOPUP_DAILY_CAP: "3000" },
  });

  it("asks the amount, re-asks a bad one and answers with the Pay with Khalti link", async () => {
    const u = ts.user(1301);
    const ask = await u.say("/addmoney", /How much do you want to add/);
    expect(ask.text).toContain("from Rs 10 to Rs 2,000");
    expect(ask.inlineKeyboard?.flat().map((b) => b.text)).toEqual(
      expect.arrayContaining(["Rs 100", "Rs 500", "Rs 1,000"]),
    );
    expect((await u.say("5", /try again/i)).text).toContain("The smallest amount is Rs 10");
    expect((await u.say("2500", /try again/i)).text).toMatch(/Rs 2,000/);
    const checkout = await u.say("750", /Pay with Khalti/);
    expect(checkout.text).toContain("To add Rs 750");
    const link = checkout.inlineKeyboard?.flat().find((b) => b.text === "Pay with Khalti");
    const pidx = new URL(link!.url!).searchParams.get("pidx")!;
    expect(link?.url).toBe(`${ts.system.url}/khalti/pay?pidx=${pidx}`);
    expect(await ts.system.topUps!.get(pidx)).toMatchObject({
      userId: 1301,
      amountPaisa: 75_000,
      status: "initiated",
    });

    // The payer cancels at Khalti: the chat is told, nothing is added.
    const back = ts.system.khalti!.act(pidx, "cancel")!;
    await fetch(back).then((r) => r.text());
    await waitUntil(
      () => u.botTexts().some((t) => t.includes("Rs 750 was cancelled. Nothing was added")),
      "the cancel push",
    );
  });

  it("offers only what the daily cap leaves, and says so when nothing is left", async () => {
    const u = ts.user(1302);
    const first = await ts.system.topUps!.start({
      userId: 1302,
      chatId: 1302,
      locale: "en",
      amountPaisa: 200_000,
    });
    expect(first.ok).toBe(true);
    expect((await u.say("/addmoney", /How much/)).text).toContain("to Rs 1,000");
    await u.say("/cancel");
    await ts.system.topUps!.start({
      userId: 1302,
      chatId: 1302,
      locale: "en",
      amountPaisa: 100_000,
    });
    expect((await u.say("/addmoney", /more today/)).text).toContain("at most Rs 0 more today");
  });

  it("a customer's /balance offers Add money, which enters the same flow", async () => {
    const u = ts.user(1304);
    await u.register();
    const shown = await u.say("/balance", /balance/i);
    expect(shown.inlineKeyboard?.flat().map((b) => b.text)).toEqual(["➕ Add money"]);
    await u.tap("➕ Add money", /How much do you want to add/);
    await u.say("200", /Pay with Khalti/);
  });

  it("speaks Nepali and lists /addmoney in /help", async () => {
    const u = ts.user(1303, { language_code: "ne" });
    expect((await u.say("/help", /addmoney/)).text).toContain("खल्तीबाट मौज्दातमा पैसा थप्नुहोस्");
    const ask = await u.say("/addmoney", /कति थप्ने/);
    expect(ask.text).toContain("रु 10");
    const checkout = await u.say("100", /खल्तीबाट तिर्नुहोस्/);
    expect(checkout.inlineKeyboard?.flat()[0]?.text).toBe("खल्तीबाट तिर्नुहोस्");
  });
});
