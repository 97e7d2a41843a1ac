import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createRedisBlocked } from "../../src/accounts/blocked.ts";
import type { Phone } from "../../src/accounts/phone.ts";
import { createI18n, LOCALES, translator } from "../../src/bot/i18n.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { isFreshWaAccount } from "../../src/whatsapp/chat-ids.ts";
import { REDIS_URL } from "../support/redis.ts";
import { useReleasedChatRig } from "../support/released-chat-rig.ts";
import {
  availableOf,
  creditPerson,
  linkWhatsAppTo,
  standInOf,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * Review should-fix 3: a number released from its WhatsApp account (/waid release) and then
 * registered on Telegram before its new holder writes on WhatsApp. The chat is held by the link
 * gate (a Telegram account owns the number): its new holder takes the number for a fresh account
 * of their own (`new yes`), or joins the Telegram account with a code if it is theirs, whatever
 * the released account holds; nothing of that account is shown to them.
 */

const ADMIN_PHONE = "9779800046000";
const rig = useReleasedChatRig(ADMIN_PHONE);
const { ts, waUser, admin } = rig;

const redis = new Redis(REDIS_URL);
afterAll(() => redis.disconnect());

/** Anything of Asha's released account: her name, her money, its being another user's. */
const OLD = /Asha|Rs 400|belongs to another|account of its own/;

/** Asha's account (Rs 400) released from her number after Bikash wrote from it. */
async function released(phone: string, n: string) {
  const { old } = await rig.oldHolder(phone, n, 40_000);
  const bikash = await rig.releaseTo(phone, n);
  return { bikash, old, since: bikash.texts().length };
}

/** The shop blocks account `userId` (for abuse, by admin 1). */
const blockedByShop = (userId: number) =>
  createRedisBlocked({ redis: redis as never, prefix: ts.prefix }).block({
    userId,
    reason: "abuse",
    by: 1,
    at: Date.now(),
  });

describe("a released number registered on Telegram before its new holder writes", () => {
  it("`new yes` gives the new holder a fresh WhatsApp account; the Telegram account is told", async () => {
    const phone = "9779800046001";
    const { bikash, old, since } = await released(phone, "1");
    // A stale Telegram account (the old holder's, say) registers the number.
    const tg = ts.user(12_961);
    await tg.register(phone);
    await bikash.say("hi", /registered with us on Telegram/);
    await bikash.say("new", /To do it, type new yes/);
    await bikash.say("new yes", /now has its own account here/);
    const fresh = (await ts.system.deps.accounts.userByPhone(phone as Phone)) ?? 0;
    expect(isFreshWaAccount(fresh)).toBe(true);
    expect(await ts.system.deps.accounts.waUserOf(fresh)).toBe("NP.bikash-1");
    await tg.emu.waitForBotMessage(tg.id, /no longer this account's number/, { timeoutMs: 8000 });
    await bikash.say("balance", /Rs 0/);
    await creditPerson(ts, fresh, 5_000);
    await bikash.say("balance", /Rs 50/);
    expect(bikash.texts().slice(since).join("\n")).not.toMatch(OLD);
    // The released account keeps its money and has no number.
    expect(await availableOf(ts, old)).toBe(40_000);
    expect(await ts.system.deps.accounts.phoneOf(old)).toBeNull();
    expect(await availableOf(ts, 12_961)).toBe(0);
  });

  it("`link` joins the Telegram account that is the new holder's, whatever the released account holds", async () => {
    const phone = "9779800046002";
    const { bikash, old, since } = await released(phone, "2");
    // Bikash registers on Telegram with the number, as the held answer told him.
    const tg = ts.user(12_962);
    await tg.register(phone);
    await tg.credit(2_500);
    await linkWhatsAppTo(bikash, tg);
    await bikash.say("balance", /Rs 25/);
    expect(bikash.texts().slice(since).join("\n")).not.toMatch(OLD);
    expect(await availableOf(ts, old)).toBe(40_000);
  });

  it("a message without a user id opens nothing and says why, truthfully", async () => {
    const phone = "9779800046003";
    const { bikash, since } = await released(phone, "3");
    await ts.user(12_963).register(phone);
    standInOf(ts).faults.omitUserIdOf(phone);
    const noId = waUser(phone, "Bikash");
    await noId.say("new yes", /did not say which WhatsApp user/);
    expect(await ts.system.deps.accounts.userByPhone(phone as Phone)).toBe(12_963);
    expect(bikash.texts().slice(since).join("\n")).not.toMatch(OLD);
  });

  it("the released account's block by the shop is not the new holder's", async () => {
    const phone = "9779800046004";
    const { bikash, old, since } = await released(phone, "4");
    await blockedByShop(old);
    await ts.user(12_964).register(phone);
    await bikash.say("new", /To do it, type new yes/);
    await bikash.say("new yes", /now has its own account here/);
    await bikash.say("balance", /Rs 0/);
    expect(bikash.texts().slice(since).join("\n")).not.toMatch(/blocked|Asha|Rs 400/);
  });

  it("a sender without a user id stays under the released account's block (review s24-d, 3)", async () => {
    const phone = "9779800046005";
    const { old } = await released(phone, "5");
    await blockedByShop(old);
    await ts.user(12_965).register(phone);
    standInOf(ts).faults.omitUserIdOf(phone);
    // It may be that account's own person: no code goes to the Telegram account for them.
    await waUser(phone, "Asha").say("link", /blocked by the shop/);
  });

  it("`new` without a user id is not told to type it again (review s24-d, 5)", async () => {
    const phone = "9779800046006";
    await released(phone, "6");
    await ts.user(12_966).register(phone);
    standInOf(ts).faults.omitUserIdOf(phone);
    const noId = waUser(phone, "Bikash");
    await noId.say("new", /did not say which WhatsApp user/);
    expect(noId.texts().at(-1)).not.toMatch(/again/);
    const i18n = createI18n(() => "en");
    const again = { en: /again/, ne: /फेरि/, hi: /फिर/ } as const;
    for (const locale of LOCALES) {
      const words = translator(i18n, locale)("link-new-no-id", {
        phone: phone,
        confirm: "new yes",
        link: "link",
      });
      expect(words).not.toMatch(again[locale]);
    }
  });

  it("the release is told to the admin when its orders cannot be read (review s24-d, 4)", async () => {
    const phone = "9779800046007";
    await rig.oldHolder(phone, "7");
    await rig.heldBy(phone, "7");
    // The account's order index unreadable (WRONGTYPE) when the release lists its orders.
    await redis.set(keyspace(ts.prefix).byUser(waPerson(phone)), "not an index");
    await admin().say(
      `waid +${phone} release`,
      /was released from account[\s\S]*could not be read/,
    );
    expect(await ts.system.deps.accounts.userByPhone(phone as Phone)).toBeNull();
  });
});
