import { describe, expect, it } from "vitest";
import { shopQrPng } from "../../conversations/shortcut/shop.ts";
import { expectParts } from "../support/chat.ts";
import { useTestSystem } from "../support/system.ts";

const AGENT = 3201;

/**
 * Issue 30, "Shortcuts every app has", as a customer meets them: "typing…" while a lookup runs, a
 * bare number that starts the right flow, NTC's line taken from the number's series, deep links.
 */
describe("shortcuts, end to end", () => {
  const ts = useTestSystem({ env: { AGENT_IDS: String(AGENT) } });
  const t = (locale: string, key: string, params?: Record<string, string | number>) =>
    ts.system.deps.i18n.t(locale, key, params);

  it("shows typing… while a slow subscriber lookup runs, until its answer arrives", async () => {
    const u = ts.user(3101);
    const sandbox = ts.system.sandbox!;
    const token = ts.system.config.sandbox.token;
    await u.menu("📺 TV (DTH)", /Which TV \(DTH\) operator/);
    await u.tap("Dish Home", /Your Dish Home customer id/);
    const seen: string[] = [];
    const offTyping = u.emu.on("typing", (e) => {
      if (e.chatId === u.id) seen.push(`typing:${e.action}`);
    });
    const offMessage = u.emu.on("message", (e) => {
      if (e.chatId === u.id && e.message.from === "bot") seen.push(e.message.text.split("\n")[0]!);
    });
    // The provider takes its time: the chat shows "typing…" meanwhile.
    sandbox.setFaults(token, { latencyMs: 1500 });
    try {
      const { message_id } = u.emu.sendText(u.id, "DH123456");
      const typing = await u.emu.waitFor(() => u.emu.typing(u.id));
      expect(typing.action).toBe("typing");
      await u.emu.waitForBotMessage(u.id, /Dish Home subscriber DH123456/, {
        afterId: message_id,
        timeoutMs: 8000,
      });
    } finally {
      sandbox.clearFaults(token);
      offTyping();
      offMessage();
    }
    // "typing…" came first, then the answer, which ended it.
    expect(seen[0]).toBe("typing:typing");
    expect(seen.findIndex((s) => /subscriber DH123456/.test(s))).toBeGreaterThan(0);
    expect(u.emu.typing(u.id)).toBeUndefined();
  });

  it("a Nepal mobile number sent alone starts its top-up, operator detected, and it is paid", async () => {
    const u = ts.user(3102);
    // No /recharge, no menu: the number alone.
    const amount = await u.say("+977 984-123-4567", /How much\?/);
    expect(amount.text.split("\n")[0]).toBe("📱 9841234567 · NTC Prepaid");
    const confirm = await u.say("150", /Please check your order/);
    expectParts(confirm.text, [
      "Operator: NTC Prepaid",
      "Number / account: 9841234567",
      "Amount: Rs 150",
    ]);
    const { ref } = await u.confirmUntil("succeeded");
    expect((await ts.system.orders.get(ref))?.connectionNo).toBe("9841234567");
  });

  it("in Nepali, with Devanagari digits; an Ncell number opens the data packs with it", async () => {
    const u = ts.user(3103, { language_code: "ne" });
    const amount = await u.say("९८६१२३४५६७", /कति\?/);
    expect(amount.text.split("\n")[0]).toBe("📱 9861234567 · NTC Prepaid");
    await u.say("/cancel", t("ne", "common-cancelled"));
    // Ncell recharges with packs: the data pack flow, its number question already answered.
    await u.say("9801234567", /9801234567 एनसेल नम्बर हो|9801234567/);
    expect(u.botTexts().some((m) => m === t("ne", "datapack-ask-number"))).toBe(false);
  });

  it("an Indian number with +91 opens the India recharge: the kind is asked, the number is not", async () => {
    const u = ts.user(3106);
    await u.say("+91 98765 43210", t("en", "india-ask-kind"));
    // The number came with the message: the operator is asked next.
    await u.tap(t("en", "india-kind-prepaid"), /Prepaid mobile: which operator\?/);
    expect(u.botTexts()).not.toContain(t("en", "india-ask-number"));
    await u.say("/cancel", /Cancelled/);
  });

  it("an account id that could be a TV box or an internet login asks which, in Hindi, then goes on with it", async () => {
    const u = ts.user(3104, { language_code: "hi" });
    const which = await u.say("DH123456", t("hi", "shortcut-which", { number: "DH123456" }));
    expect(u.buttons(which)).toEqual([t("hi", "menu-dth"), t("hi", "menu-internet")]);
    await u.tap(t("hi", "menu-dth"), t("hi", "dth-ask-operator"));
    // The operator is asked; the id is not: the subscriber is looked up at once.
    await u.tap("Dish Home", /DH123456/);
    expect(u.botTexts().filter((m) => /customer id|ग्राहक आईडी/.test(m))).toEqual([]);
  });

  it("a deep link starts the recharge of a number and amount: the confirmation comes at once", async () => {
    const u = ts.user(3105);
    const confirm = await u.say("/start r-9841234567-100", /Please check your order/);
    expectParts(confirm.text, [
      "Operator: NTC Prepaid",
      "Number / account: 9841234567",
      "Amount: Rs 100",
    ]);
    const { ref } = await u.confirmUntil("succeeded");
    expect((await ts.system.orders.get(ref))?.amountPaisa).toBe(10_000);
    // A link whose amount is out of bounds asks the amount instead; a plain /start still greets.
    await u.say("/start r-9841234567-99999", /9841234567 · NTC Prepaid\nHow much\?/);
    await u.say("/cancel", /Cancelled/);
    await u.say("/start", /Namaste/);
  });
});

/** The shop's QR code is prepaid mode's (review s32-accounts, 3): staff mode, test/e2e/staff-menu.test.ts. */
describe("a shop's QR code, end to end (prepaid mode)", () => {
  const ts = useTestSystem({ env: { ACCESS_MODE: "prepaid", AGENT_IDS: String(AGENT) } });

  it("an agent's /myqr sends the shop's QR code; a customer who scans it and registers is the shop's, and the agent is told", async () => {
    const agent = ts.user(AGENT);
    const sent = agent.emu.sendText(AGENT, "/myqr");
    const qr = await agent.emu.waitForBotMessage(AGENT, (m) => m.kind === "photo", {
      afterId: sent.message_id,
    });
    const link = `https://t.me/${agent.emu.botUser.username}?start=shop-${AGENT}`;
    expect(qr.text).toContain(`Link: ${link}`);
    expect(qr.text).toContain(`On WhatsApp, customers send: start shop-${AGENT}`);
    // The image is the QR code of that link (a PNG, as /myqr renders it).
    const bytes = agent.emu.photoBytes(AGENT, qr.id)!;
    expect(Buffer.from(bytes.subarray(0, 8)).toString("hex")).toBe("89504e470d0a1a0a");
    expect(Buffer.from(bytes).equals(await shopQrPng(link))).toBe(true);

    // A customer scans it: asked to register, with the contact button.
    const u = ts.user(3202, { first_name: "Gita" });
    const welcome = await u.say(`/start shop-${AGENT}`, /scanned a shop's QR code/);
    expect(u.emu.contactButtons(u.id)).toHaveLength(1);
    expect(welcome.text).toContain("Namaste Gita");
    await u.register();
    await u.waitFor(/You are now a customer of this shop/);
    const told = await agent.waitFor(/New customer through your shop's QR code/);
    expect(told.text).toContain("Gita");
    expect(told.text).toContain("+977 9800003202");
    expect(await ts.system.deps.accounts.shopOf(3202)).toBe(AGENT);
    // Scanned again (or another shop's): the first shop stays, nobody is told twice.
    await u.say(`/start shop-${AGENT}`, /already registered/);
    expect(agent.botTexts().filter((m) => /New customer/.test(m))).toHaveLength(1);
    // Only agents have a shop code.
    await u.say("/myqr", "Only agents have a shop QR code.");
  });
});
