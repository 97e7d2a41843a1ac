import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { linkGate } from "../../conversations/register/link-gate.ts";
import type { Phone } from "../../src/accounts/phone.ts";
import type { BotContext } from "../../src/bot/context.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { chatIdOfWaId, isFreshWaAccount } from "../../src/whatsapp/chat-ids.ts";
import { markHeld, markSender } from "../../src/whatsapp/held.ts";
import { REDIS_URL } from "../support/redis.ts";
import { useReleasedChatRig } from "../support/released-chat-rig.ts";
import { availableOf, creditPerson } from "../support/whatsapp-steps.ts";

/**
 * Review s24-d, 1: `new yes` in a held chat takes the number only from the owner its update read
 * (accounts/take-held.ts). Two updates of one chat handled on the same stale read (a message let
 * go after the chat order's wait, or taken over from a stalled instance), or a Telegram
 * registration that lands between the read and the take: one fresh account, and only the account
 * the number was taken from is told. The gate runs on the real system's deps (real Redis) with
 * the held read marked as the WhatsApp inbound marks it.
 */

const ADMIN_PHONE = "9779800046100";
const rig = useReleasedChatRig(ADMIN_PHONE);
const { ts } = rig;
const redis = new Redis(REDIS_URL);
afterAll(() => redis.disconnect());

/** An update of the number's chat as the inbound handler marks it: held by `ownerId`, read then. */
function heldUpdate(phone: string, ownerId: number, seal: string, text: string, out: string[]) {
  const chatId = chatIdOfWaId(phone) ?? 0;
  const update = { update_id: 1, message: { text } } as never;
  markHeld(update, { ownerId, phone: phone as Phone });
  markSender(update, seal);
  return {
    update,
    chat: { id: chatId, type: "private" },
    message: { text },
    from: { id: chatId, first_name: "Bikash" },
    i18n: { getLocale: async () => "en" },
    api: {
      sendMessage: async (to: number, t: string) => {
        out.push(`to ${to}: ${t}`);
      },
    },
    reply: async (t: string) => {
      out.push(`reply: ${t}`);
    },
  } as unknown as BotContext;
}

/** Asha's account (Rs 400) released from her number; then Telegram account `tg` registers it. */
async function releasedThenTelegram(phone: string, n: string, tg: number) {
  await rig.oldHolder(phone, n, 40_000);
  await rig.releaseTo(phone, n);
  await ts.user(tg).register(phone);
}

const gate = () => linkGate(ts.system.deps as never);
const owner = (phone: string) => ts.system.deps.accounts.userByPhone(phone as Phone);
const TAKEN = /no longer this account's number/;
const DONE = /now has its own account here/;

describe("`new yes` on a stale held read", () => {
  it("twice on one read: one fresh account keeps the number, the Telegram account told once", async () => {
    const phone = "9779800046101";
    await releasedThenTelegram(phone, "r1", 12_991);
    const out: string[] = [];
    await gate()(heldUpdate(phone, 12_991, "u:NP.bikash-r1", "new yes", out), async () => {});
    const first = (await owner(phone)) ?? 0;
    expect(isFreshWaAccount(first)).toBe(true);
    await creditPerson(ts, first, 5_000); // a cash-in to the number in between
    await gate()(heldUpdate(phone, 12_991, "u:NP.bikash-r1", "new yes", out), async () => {});
    expect(await owner(phone)).toBe(first);
    expect(await ts.system.deps.accounts.phoneOf(first)).toBe(phone);
    expect(await availableOf(ts, first)).toBe(5_000);
    expect(out.filter((l) => l.startsWith("reply:") && DONE.test(l))).toHaveLength(2);
    expect(out.filter((l) => TAKEN.test(l))).toEqual([expect.stringMatching(/^to 12991: /)]);
  });

  it("a Telegram registration after the read keeps the number; nobody else is told", async () => {
    const phone = "9779800046102";
    await releasedThenTelegram(phone, "r2", 12_992);
    const counter = `${keyspace(ts.prefix).accountWaReleased}:n`;
    const before = await redis.get(counter);
    // The chat's update read 12992 as the owner; 12993 registers the number meanwhile.
    const out: string[] = [];
    const stale = heldUpdate(phone, 12_992, "u:NP.bikash-r2", "new yes", out);
    await ts.user(12_993).register(phone);
    await gate()(stale, async () => {});
    expect(await owner(phone)).toBe(12_993);
    expect(out).toEqual([expect.stringMatching(/^reply: .*another account registered/)]);
    // No fresh id was taken for it.
    expect(await redis.get(counter)).toBe(before);
  });
});
