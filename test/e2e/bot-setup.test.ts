import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";

/** What the bot sets up and how it answers outside any flow. */
const ADMIN = 961;
const GROUP = -100_961;

describe("bot set-up and fallbacks, end to end", () => {
  const ts = useTestSystem({ env: { ADMIN_IDS: String(ADMIN), AGENT_IDS: "962" } });

  it("registers the command menu in English, Nepali and Hindi, with the agent's and the admin's commands in their chats", () => {
    const emu = ts.user(960).emu;
    const all = emu.allCommands();
    expect(Object.keys(all).sort()).toEqual(
      [
        "default",
        "default|ne",
        "default|hi",
        `chat:${ADMIN}`,
        `chat:${ADMIN}|ne`,
        `chat:${ADMIN}|hi`,
        "chat:962",
        "chat:962|ne",
        "chat:962|hi",
      ].sort(),
    );
    const everyone = [
      "start",
      "recharge",
      "balance",
      "register",
      "addmoney",
      "status",
      "history",
      "statement",
      "saved",
      "reminders",
      "language",
      // Complaints on orders (issue 30).
      "complain",
      "help",
      "cancel",
    ];
    for (const lang of ["", "|ne", "|hi"]) {
      expect(all[`default${lang}`]?.map((c) => c.command)).toEqual(everyone);
      // No /cashin nor /myqr (the shop's QR code, issue 30) in staff mode, this system's: a
      // customer has no balance to cash into there and may not order (review s32-accounts, 3).
      expect(all[`chat:962${lang}`]?.map((c) => c.command)).toEqual([...everyone, "dashboard"]);
      expect(all[`chat:${ADMIN}${lang}`]?.map((c) => c.command)).toEqual([
        ...everyone,
        "credit",
        "reverse",
        "books",
        // Settling an order the aggregator never ended (h-settle).
        "settle",
        // A held WhatsApp account's decision (h-waid2).
        "waid",
        // Held top-ups (issue 25): with a gateway wired, as here (the local stand-in).
        "topups",
        // A refunded top-up's rest that never comes back (review s31-pay, 4b).
        "writeoff",
        // Open complaints (issue 30).
        "complaints",
        // The back office (issue 29): on in this local-mode system.
        "dashboard",
      ]);
    }
    const describe = (key: string, command: string) =>
      all[key]?.find((c) => c.command === command)?.description;
    expect(describe("default", "status")).toBe("Check an order");
    expect(describe("default|ne", "status")).toBe("अर्डर जाँच");
    expect(describe("default|hi", "status")).toBe(ts.system.deps.i18n.t("hi", "cmd-status"));
    expect(describe("default|ne", "balance")).toBe("मेरो मौज्दात");
    expect(describe("default|ne", "saved")).toBe("मेरा सुरक्षित नम्बर");
    expect(describe(`chat:${ADMIN}`, "credit")).toBe("Credit an agent (admins)");
  });

  it("takes no orders in a group: /recharge says private chats only and starts nothing", async () => {
    const emu = ts.user(963).emu;
    const sent = emu.sendGroupText(963, GROUP, "/recharge", { title: "Family" });
    const answer = await emu.waitForBotMessage(GROUP, /private chat/, { afterId: sent.message_id });
    expect(answer.text).toBe("For your safety, orders are only taken in a private chat with me.");
    expect(answer.inlineKeyboard ?? []).toEqual([]);
    // What would be the first answer of a flow is ignored; the next command is answered the same way.
    emu.sendGroupText(963, GROUP, "9841234567");
    const status = emu.sendGroupText(963, GROUP, "/status 123");
    await emu.waitForBotMessage(GROUP, /private chat/, { afterId: status.message_id });
    expect(
      emu
        .chat(GROUP)
        .filter((m) => m.from === "bot")
        .map((m) => m.text),
    ).toEqual([
      "For your safety, orders are only taken in a private chat with me.",
      "For your safety, orders are only taken in a private chat with me.",
    ]);
    // Nor did a flow start in the user's private chat.
    const u = ts.user(963);
    // (A bare number would start a top-up for it, issue 30: an amount is no shortcut.)
    expect((await u.say("150")).text).toMatch(/I did not understand that/);
  });

  it("answers text, stickers and photos outside a flow with the unknown-input help", async () => {
    const u = ts.user(964);
    const unknown = "I did not understand that. Send /recharge to pay something or /help for help.";
    expect((await u.say("hello bot")).text).toBe(unknown);
    const sticker = u.emu.sendSticker(964, { emoji: "😀" });
    expect(
      (await u.emu.waitForBotMessage(964, undefined, { afterId: sticker.message_id })).text,
    ).toBe(unknown);
    const photo = u.emu.sendPhoto(964, { caption: "my bill" });
    expect(
      (await u.emu.waitForBotMessage(964, undefined, { afterId: photo.message_id })).text,
    ).toBe(unknown);
    expect((await u.say("/cancel")).text).toBe("There is nothing to cancel.");
  });

  it("answers a button of a finished flow with 'no longer active' and does nothing", async () => {
    const u = ts.user(965);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    const amountPrompt = await u.say("9841000965", /How much/);
    await u.say("100", /Please check your order/);
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1];
    await u.waitFor(new RegExp(`Order ${ref} succeeded`));

    // The flow is over; its amount buttons are still on the screen.
    const before = u.chat().length;
    const press = u.emu.clickButton(965, "Rs 200", { messageId: amountPrompt.id });
    const answer = await u.emu.waitFor(() =>
      u.emu.callbackAnswers().find((a) => a.callback_query_id === press.callback_query_id),
    );
    expect(answer.text).toBe("This button is no longer active.");
    // Then a message, so that everything sent before it has been handled.
    await u.say("/history", /Your last orders/);
    expect(u.chat().length).toBe(before + 2);
    expect(await ts.system.orders.listByUser(965, 10)).toHaveLength(1);
  });

  it("answers forged or malformed menu, language and repeat data like an expired button", async () => {
    const u = ts.user(966);
    const welcome = await u.say("/start", /Namaste/);
    const forged = ["m:nope", "m:status", "m:", "lang:fr", "lang:", "rep:abc", "rep:0123", "rep:"];
    for (const data of forged) {
      const press = u.emu.pressButton(966, welcome.id, data, { force: true });
      const answer = await u.emu.waitFor(() =>
        u.emu.callbackAnswers().find((a) => a.callback_query_id === press.callback_query_id),
      );
      expect({ data, text: answer.text }).toEqual({
        data,
        text: "This button is no longer active.",
      });
    }
    // Nothing started: no conversation asks anything, the language is as it was.
    const after = await u.say("/cancel", "There is nothing to cancel.");
    expect(u.chat().filter((m) => m.from === "bot" && m.id > welcome.id)).toEqual([after]);
  });

  it("shows the role's help: agents and admins learn their extra commands (staff mode: no /cashin)", async () => {
    const customer = await ts.user(966).say("/help");
    expect(customer.text).not.toMatch(/As an agent|As an admin/);
    const agent = await ts.user(962).say("/help");
    expect(agent.text).toContain("As an agent you can check any order with /status.");
    // Staff mode (this system's): cash-ins are off, so /cashin and /myqr are not offered.
    expect(agent.text).not.toMatch(/\/cashin|\/myqr/);
    expect(agent.text).not.toContain("/reverse");
    expect(customer.text).not.toMatch(/\/cashin|\/credit|\/reverse/);
    const admin = await ts.user(ADMIN).say("/help");
    expect(admin.text).toContain("As an admin you can see the wallet with /balance.");
    expect(admin.text).toContain("/reverse");
  });
});
