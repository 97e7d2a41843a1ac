import { describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import { type TestUser, useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import {
  availableOf,
  creditPerson,
  linkCodeIn,
  linkTelegramTo,
  shareContact,
  standInOf,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * h-unlink (review s33-rvlink, "not fixed"): the owner of a WhatsApp-born account ends a join a
 * Telegram chat made to it, from the WhatsApp chat: `unlink` lists the joined Telegram chats, a
 * press ends the chosen one, both chats are told, the money stays on the owner's account and the
 * Telegram chat sees its own empty account. An open flow there ends before anything of it runs,
 * and a link ended by another process is not trusted from this process's cache.
 */

const ts = useTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });
const t = (key: string, args?: Record<string, string>) => ts.system.deps.i18n.t("en", key, args);
const links = () => ts.system.deps.accounts.links;

/** Asha's WhatsApp account with Rs 500, joined from Telegram user `id`. */
async function joined(id: number, phone: string, lang?: string) {
  const asha = new WhatsAppChatUser(standInOf(ts), phone, { name: "Asha", userId: `NP.u-${id}` });
  await asha.say("hi", /Namaste Asha/);
  const person = waPerson(phone);
  await creditPerson(ts, person, 50_000);
  const tg = ts.user(id, lang ? { language_code: lang } : {});
  if (lang === undefined) await linkTelegramTo(tg, asha, phone);
  else {
    await shareContact(tg, phone, /WhatsApp/);
    const sent = await asha.waitFor(/: \d{6}\n/);
    await tg.say(`/link ${linkCodeIn(sent.text)}`, /✅/);
  }
  expect(await links().linkOf(tg.id)).toBe(person);
  return { asha, tg, person };
}

/** The Telegram chat's next bot message after `after` matching `re`. */
const toldIn = (tg: TestUser, re: RegExp, after: number) =>
  tg.emu.waitForBotMessage(tg.id, re, { afterId: after, timeoutMs: 8000 });

const data = (m: TranscriptEntry, label: string) =>
  (m.inlineKeyboard ?? []).flat().find((b) => b.text === label)?.callback_data ?? "";

describe("the owner ends a join made to their WhatsApp account", () => {
  it("unlink lists the Telegram chat; a press ends it; both told; the money stays", async () => {
    const { asha, tg, person } = await joined(33_401, "9779800033401");
    // The code's message told the owner how to end the join from their chat.
    expect(asha.texts().join("\n")).toMatch(/you can end it from here any time: send "unlink"/);
    await asha.say("unlink", /These Telegram chats use your account/);
    const after = tg.lastId();
    await asha.tap(/^End 1/, /Ended: .* no longer uses your account/);
    await toldIn(tg, /The WhatsApp account of .* ended this chat's join/, after);
    expect(await links().linkOf(tg.id)).toBeNull();
    expect(await availableOf(ts, person)).toBe(50_000);
    await tg.say("/balance", /./);
    expect(tg.botMessages().at(-1)?.text).not.toMatch(/Rs 500/);
    // The chat's own account is empty: nothing of the owner's moved to it.
    expect(await availableOf(ts, tg.id)).toBe(0);
    // The list's button again: nothing left to end.
    await asha.tap(/^End 1/, /That chat no longer uses your account: nothing to end/);
    // A second look finds nothing joined.
    await asha.say("unlink", t("unlink-none"));
  });

  it("Keep changes nothing", async () => {
    const { asha, tg } = await joined(33_402, "9779800033402");
    await asha.say("unlink", /These Telegram chats use your account/);
    await asha.tap(/^Keep/, /Nothing changed/);
    expect(await links().linkOf(tg.id)).toBe(waPerson("9779800033402"));
  });

  it("an open flow at the Telegram chat ends at its next tap: nothing is placed from the owner's balance", async () => {
    const phone = "9779800033403";
    const asha = new WhatsAppChatUser(standInOf(ts), phone, { name: "Asha", userId: "NP.u-33403" });
    await asha.say("hi", /Namaste Asha/);
    const person = waPerson(phone);
    await creditPerson(ts, person, 50_000);
    const tg = ts.user(33_403);
    await linkTelegramTo(tg, asha, phone);
    const confirm = await tg.mobileToConfirm("9841334030", "150");
    await asha.say("unlink", /These Telegram chats use your account/);
    await asha.tap(/^End 1/, /Ended:/);
    const last = tg.lastId();
    tg.emu.pressButton(tg.id, confirm.id, data(confirm, "✅ Confirm"), { force: true });
    await toldIn(tg, /has ended here/, last);
    expect(await ts.system.orders.listByUser(person, 5)).toHaveLength(0);
    expect(await ts.system.orders.listByUser(tg.id, 5)).toHaveLength(0);
    expect(await availableOf(ts, person)).toBe(50_000);
  });

  it("a join ended by another process is not spent from this process's cache", async () => {
    const { tg, person } = await joined(33_404, "9779800033404");
    // This process has read the link (the chat acted as the owner's account just now).
    await tg.say("/balance", /Rs 500/);
    // Another instance ends the join (the owner pressed there): Redis only, this process not told.
    expect(await links().unlink(tg.id, person)).toBe(true);
    await tg.say("/balance", /./);
    expect(tg.botMessages().at(-1)?.text).not.toMatch(/Rs 500/);
    expect(await availableOf(ts, person)).toBe(50_000);
  });

  it("a join the Telegram chat made elsewhere since the list stays (compare and delete)", async () => {
    const { tg } = await joined(33_405, "9779800033405");
    expect(await links().unlink(tg.id, waPerson("9779800099999"))).toBe(false);
    expect(await links().linkOf(tg.id)).toBe(waPerson("9779800033405"));
  });

  it("the Telegram chat is told in its language", async () => {
    for (const [id, lang, words] of [
      [33_406, "ne", /को WhatsApp खाताले यो च्याटको जोड हटायो/],
      [33_407, "hi", /के WhatsApp खाते ने इस चैट का जोड़ हटा दिया/],
    ] as const) {
      const { asha, tg } = await joined(id, `97798000${id}`, lang);
      await asha.say("unlink", /These Telegram chats use your account/);
      const after = tg.lastId();
      await asha.tap(/^End 1/, /Ended:/);
      await toldIn(tg, words, after);
    }
  });
});
