import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { isFreshWaAccount } from "../../src/whatsapp/chat-ids.ts";
import { REDIS_URL } from "../support/redis.ts";
import { useReleasedChatRig } from "../support/released-chat-rig.ts";
import type { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import { creditPerson, openCategory, shareContact } from "../support/whatsapp-steps.ts";

/**
 * A flow the number's old holder left open (a confirmation waiting) is not its next holder's after
 * `/waid <phone> release`: the chat's conversation, session and idle deadline go with the release
 * (and again as the fresh account opens), and a flow that is still found ends when another account
 * acts in it. The old account's money never moves from the number's chat (review s23-c, item 1).
 */

const ADMIN_PHONE = "9779800049000";
const rig = useReleasedChatRig(ADMIN_PHONE);
const { ts } = rig;
const redis = new Redis(REDIS_URL);
afterAll(() => redis.disconnect());

const OTHER = /started by another account/;

/** What the books and the aggregator hold, to compare before and after. */
async function money(person: number) {
  const b = await ts.system.ledger.balance(account.customer(person));
  const sandbox = ts.system.sandbox!;
  const token = ts.system.config.sandbox.token;
  return {
    books: b,
    sandboxBalance: sandbox.balance(token),
    sandboxOrders: sandbox.ledger(token).length,
    orders: (await ts.system.store.listByUser(person, 50)).length,
  };
}

/** `holder` (with Rs 500) opens a mobile top-up of Rs 150 and stops at its confirmation. */
async function atConfirmation(holder: WhatsAppChatUser, person: number) {
  await creditPerson(ts, person, 50_000);
  await openCategory(holder, /Mobile top-up/, /Which mobile number should I recharge/);
  await holder.say("9841234567", /How much\?/);
  await holder.say("Rs 150", /Please check your order/);
}

describe("a released number's open flow", () => {
  it("the next holder's tap on the old Confirm places nothing and moves none of the old money", async () => {
    const phone = "9779800049001";
    const { asha, old } = await rig.oldHolder(phone, "49a");
    await atConfirmation(asha, old);
    const before = await money(old);
    const bikash = await rig.releaseTo(phone, "49a");
    const since = bikash.texts().length;
    // The old confirmation is still in the chat; the new holder taps its Confirm.
    await bikash.tap(/Confirm/);
    await bikash.say("balance", /Rs 0/);
    expect(await money(old)).toEqual(before);
    expect(before.books.availablePaisa).toBe(50_000);
    const fresh = await rig.holderOf(phone);
    expect(isFreshWaAccount(fresh)).toBe(true);
    expect(await ts.system.store.listByUser(fresh, 50)).toEqual([]);
    const shown = bikash.texts().slice(since).join("\n");
    expect(shown).not.toMatch(/Rs 500|Rs 350|Balance after|9841234567|Asha/);
  });

  it("a fresh account's open flow is not the holder's after it is released in turn", async () => {
    const phone = "9779800049002";
    await rig.oldHolder(phone, "49b");
    const bikash = await rig.releaseTo(phone, "49b");
    await bikash.say("balance", /Rs 0/);
    const fresh = await rig.holderOf(phone);
    expect(isFreshWaAccount(fresh)).toBe(true);
    await atConfirmation(bikash, fresh);
    const before = await money(fresh);
    const chandra = await rig.heldBy(phone, "49b", "Chandra");
    await rig.release(phone);
    const since = chandra.texts().length;
    await chandra.tap(/Confirm/);
    await chandra.say("balance", /Rs 0/);
    expect(await money(fresh)).toEqual(before);
    expect(before.books.availablePaisa).toBe(50_000);
    expect(chandra.texts().slice(since).join("\n")).not.toMatch(/Rs 500|Rs 350|Balance after/);
  });

  it("a flow of the old account still found (saved by an update under way) ends, nothing spent", async () => {
    const phone = "9779800049003";
    const { asha, old } = await rig.oldHolder(phone, "49c");
    await atConfirmation(asha, old);
    const before = await money(old);
    const k = keyspace(ts.prefix);
    const key = k.conversationPrefix + old;
    const saved = await redis.getBuffer(key);
    expect(saved).not.toBeNull();
    const bikash = await rig.releaseTo(phone, "49c");
    await bikash.say("balance", /Rs 0/);
    // As if an update of the old holder's, under way through the release, saved the flow after.
    await redis.set(key, saved!, "EX", 600);
    await bikash.tap(/Confirm/, OTHER);
    await bikash.say("balance", /Rs 0/);
    expect(await money(old)).toEqual(before);
  });
});

describe("a fresh account's pushes after an undeliverable one (review s23-c, should-fix 1)", () => {
  it("start from the number's chat makes the fresh account's pushes go again", async () => {
    const phone = "9779800049004";
    await rig.oldHolder(phone, "49d");
    const bikash = await rig.releaseTo(phone, "49d");
    await bikash.say("balance", /Rs 0/);
    const fresh = await rig.holderOf(phone);
    expect(isFreshWaAccount(fresh)).toBe(true);
    // As a push to it answered "undeliverable" (Meta 131026, the router's 403) would leave it.
    await ts.system.queue.markChatInactive(fresh);
    await bikash.say("start", /Choose what you want to pay/);
    expect(await ts.system.queue.isChatInactive(fresh)).toBe(false);
  });
});

describe("the link offer for a fresh account (review s23-c, should-fix 2)", () => {
  it("names WhatsApp, where the code went", async () => {
    const phone = "9779800049005";
    await rig.oldHolder(phone, "49e");
    const bikash = await rig.releaseTo(phone, "49e");
    await bikash.say("balance", /Rs 0/);
    const offer = await shareContact(ts.user(49_005), phone, /6-digit code/);
    expect(offer.text).toMatch(/has an account on WhatsApp/);
    expect(offer.text).toMatch(/code to that WhatsApp chat/);
    expect(offer.text).not.toMatch(/Telegram/);
    await bikash.waitFor(/Your code to use this account/);
  });
});
