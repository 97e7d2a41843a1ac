import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { createRedisBlocked } from "../../src/accounts/blocked.ts";
import type { Phone } from "../../src/accounts/phone.ts";
import { createRedisWaChatStore } from "../../src/whatsapp/chat-store.ts";
import { REDIS_URL } from "../support/redis.ts";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import {
  availableOf,
  linkCodeIn,
  linkWhatsAppTo,
  shareContact,
  standInOf,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * s21 review findings 1, 3, 5 and 6: a WhatsApp chat's id is its phone number, which changes
 * hands, so a link proven in it holds only for the sender who proved it (Meta's user id, else the
 * profile name); `new` moves a number away from a Telegram account only when confirmed, and that
 * account is told and keeps spending its own balance; the code's words are never kept in the chat
 * record; a blocked chat joins nothing; the code's message says who asked.
 */

const ts = useTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });

const waUser = (phone: string, name: string, userId?: string) =>
  new WhatsAppChatUser(standInOf(ts), phone, { name, ...(userId ? { userId } : {}) });

describe("finding 1: a link is the sender's who proved it, not the number's", () => {
  it("the next holder of a linked number (another Meta user id) sees nothing of the account", async () => {
    const phone = "9779800031001";
    const tg = ts.user(31_001);
    await tg.register(phone);
    await tg.credit(40_000);
    const owner = waUser(phone, "Asha", "NP.bsuid-asha");
    await owner.say("hi", /registered with us on Telegram/);
    await linkWhatsAppTo(owner, tg);
    await owner.say("balance", /Your balance: Rs 400/);
    // The SIM is given up and recycled: Meta gives its new holder another user id.
    const next = waUser(phone, "Bikash", "NP.bsuid-bikash");
    const seen = await next.say("balance", /registered with us on Telegram/);
    expect(seen.text).not.toMatch(/Rs 400/);
    // The link was the other person's: dropped for good, the new holder is held like a stranger.
    expect(await ts.system.deps.accounts.links.linkOf(waPerson(phone))).toBeNull();
    await next.say("history", /registered with us on Telegram/);
    expect(await availableOf(ts, 31_001)).toBe(40_000);
    await tg.say("/balance", /Your balance: Rs 400/);
  });

  it("without user ids, a link holds only for the profile name that proved it", async () => {
    const phone = "9779800031002";
    const tg = ts.user(31_002);
    await tg.register(phone);
    await tg.credit(25_000);
    const owner = waUser(phone, "Ram");
    await owner.say("hi", /registered with us on Telegram/);
    await linkWhatsAppTo(owner, tg);
    // Another name from the number: held (suspended, not dropped: the same person may rename).
    const other = waUser(phone, "Hari");
    const seen = await other.say("balance", /registered with us on Telegram/);
    expect(seen.text).not.toMatch(/Rs 250/);
    expect(await ts.system.deps.accounts.links.linkOf(waPerson(phone))).toBe(31_002);
    await owner.say("balance", /Your balance: Rs 250/);
  });

  it("a name seal gives way to the first Meta user id seen with that name: the same name with another id no longer passes", async () => {
    const phone = "9779800031009";
    const tg = ts.user(31_009);
    await tg.register(phone);
    await tg.credit(35_000);
    const owner = waUser(phone, "Ram");
    await owner.say("hi", /registered with us on Telegram/);
    await linkWhatsAppTo(owner, tg);
    // Meta starts sending user ids: the first one with the sealed name replaces the name seal.
    const ownerNow = waUser(phone, "Ram", "NP.bsuid-ram-9");
    await ownerNow.say("balance", /Your balance: Rs 350/);
    expect(await ts.system.deps.accounts.links.sealedLinkOf(waPerson(phone))).toEqual({
      personId: 31_009,
      seal: "u:NP.bsuid-ram-9",
    });
    // A new holder who picks the same name, with their own user id: held, nothing shown.
    const namesake = waUser(phone, "Ram", "NP.bsuid-other-ram-9");
    const seen = await namesake.say("balance", /registered with us on Telegram/);
    expect(seen.text).not.toMatch(/Rs 350/);
    expect(await availableOf(ts, 31_009)).toBe(35_000);
  });
});

describe("finding 3: `new` is confirmed, and the Telegram account keeps its money and is told", () => {
  it("the Telegram owner is told and still orders with its balance after the number moves", async () => {
    const phone = "9779800031003";
    const tg = ts.user(31_003);
    await tg.register(phone);
    await tg.credit(50_000);
    const holder = waUser(phone, "Holder");
    await holder.say("hi", /registered with us on Telegram/);
    await holder.say("new", /To do it, type new yes/);
    // Asked, not done: the number is still the Telegram account's.
    expect(await ts.system.deps.accounts.userByPhone(phone as Phone)).toBe(31_003);
    const before = tg.lastId();
    await holder.say("new yes", /now has its own account here/);
    expect(await ts.system.deps.accounts.userByPhone(phone as Phone)).toBe(waPerson(phone));
    const told = await tg.emu.waitForBotMessage(tg.id, /no longer this account's number/, {
      afterId: before,
      timeoutMs: 8000,
    });
    expect(told.text).toMatch(/Your balance and history stay here/);
    await tg.say("/balance", /Your balance: Rs 500/);
    const recharge = await tg.say("/recharge");
    expect(recharge.text).not.toMatch(/register first/i);
    expect(await availableOf(ts, 31_003)).toBe(50_000);
    // Its new number registers as usual (no money rule stands in the way of its own account).
    await tg.register("9779800031013");
    await tg.say("/balance", /Your balance: Rs 500/);
  });
});

describe("finding 5: the link code is never kept in the WhatsApp chat record", () => {
  it("keeps no words of the code's message, even while it is not delivered", async () => {
    const phone = "9779800031004";
    const owner = waUser(phone, "Owner");
    await owner.say("hi", /Namaste/);
    standInOf(ts).faults.failStatusFor(phone, 131026);
    const tg = ts.user(31_004, { first_name: "Gita" });
    await shareContact(tg, phone, /sent a 6-digit code/);
    const sent = await owner.waitFor(/Your code/);
    const code = linkCodeIn(sent.text);
    await standInOf(ts).settled();
    const redis = new Redis(REDIS_URL);
    try {
      const store = createRedisWaChatStore(redis as never, ts.prefix);
      const kept: (string | null)[] = [];
      for (let m = 1; m <= 10; m++) {
        const shown = await store.shown(waPerson(phone), m);
        if (shown) kept.push(shown.text ?? null);
      }
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.filter((t) => t?.includes(code))).toEqual([]);
    } finally {
      redis.disconnect();
    }
    // The code still works: it was only never written down.
    await tg.say(`/link ${code}`, /Joined: this chat now uses the account/);
  });
});

describe("finding 6: the code's message says who asked; a chat the shop blocked joins nothing", () => {
  it("names the Telegram account that asked for the code", async () => {
    const phone = "9779800031006";
    const owner = waUser(phone, "Owner");
    await owner.say("hi", /Namaste/);
    const tg = ts.user(31_006, { first_name: "Gita" });
    await shareContact(tg, phone, /sent a 6-digit code/);
    const sent = await owner.waitFor(/Your code/);
    expect(sent.text).toMatch(/Asked on Telegram by: Gita\. If that is not you, ignore/);
  });

  it("a blocked held WhatsApp chat gets no code and cannot take the number", async () => {
    const phone = "9779800031005";
    const tg = ts.user(31_005);
    await tg.register(phone);
    const holder = waUser(phone, "Blocked");
    await holder.say("hi", /registered with us on Telegram/);
    const redis = new Redis(REDIS_URL);
    try {
      await createRedisBlocked({ redis: redis as never, prefix: ts.prefix }).block({
        userId: waPerson(phone),
        reason: "abuse",
        by: 1,
        at: Date.now(),
      });
    } finally {
      redis.disconnect();
    }
    const before = tg.lastId();
    await holder.say("link", /blocked by the shop/);
    await holder.say("new yes", /blocked by the shop/);
    expect(tg.chat().filter((m) => m.id > before && /Your code/.test(m.text))).toEqual([]);
    expect(await ts.system.deps.accounts.userByPhone(phone as Phone)).toBe(31_005);
  });
});
