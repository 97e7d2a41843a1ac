import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { isFreshWaAccount, WA_FRESH_BASE } from "../../src/whatsapp/chat-ids.ts";
import { REDIS_URL } from "../support/redis.ts";
import { HELD, useReleasedChatRig } from "../support/released-chat-rig.ts";
import { waitUntil } from "../support/wait.ts";
import {
  availableOf,
  creditPerson,
  fundAgent,
  linkTelegramTo,
  shareContact,
} from "../support/whatsapp-steps.ts";

/**
 * After `/waid <phone> release` the number's chat is its new holder's: nothing of the old account
 * reaches it any more (its notices go to its other chat, if any; its money and orders stay), and
 * the new holder opens a fresh account of their own on WhatsApp, whose messages reach the chat.
 */

const ADMIN_PHONE = "9779800045000";
const AGENT = 12_951;
const rig = useReleasedChatRig(ADMIN_PHONE, { AGENT_IDS: String(AGENT) });
const { ts, withheldIn } = rig;

const redis = new Redis(REDIS_URL);
afterAll(() => redis.disconnect());

const ADDED = /added to your balance/;

/** A Khalti top-up of `paisa` for the account `person`, paid and confirmed. */
async function paidTopUp(person: number, paisa: number) {
  const started = await ts.system.topUps!.start({
    userId: person,
    chatId: person,
    locale: "en",
    amountPaisa: paisa,
  });
  if (!started.ok) throw new Error("top-up start refused");
  const pidx = started.topUp.paymentId;
  ts.system.khalti!.act(pidx, "pay");
  expect((await ts.system.topUps!.confirm("khalti", pidx))?.status).toBe("completed");
}

/** Asha's account with Rs 400; Bikash (another Meta user id) writes from her number; released. */
async function released(phone: string, n: string) {
  const { asha, old } = await rig.oldHolder(phone, n, 40_000);
  await asha.say("balance", /Rs 400/);
  const since = asha.texts().length;
  const bikash = await rig.releaseTo(phone, n);
  return { asha, bikash, old, shownSince: () => bikash.texts().slice(since) };
}

describe("/waid release detaches the old account from the number", () => {
  it("the old account's notices no longer reach the number's chat; its money stays", async () => {
    const phone = "9779800045001";
    const { old, shownSince } = await released(phone, "1");
    await paidTopUp(old, 10_000);
    await waitUntil(
      () => withheldIn(old) || shownSince().some((t) => ADDED.test(t)),
      "the top-up notice handled",
    );
    expect(shownSince().join("\n")).not.toMatch(/added to your balance|Rs 500|Rs 400/);
    expect(await availableOf(ts, old)).toBe(50_000);
    expect(await ts.system.deps.accounts.phoneOf(old)).toBeNull();
  });

  it("the new holder gets a fresh empty account on WhatsApp; its notices reach the chat", async () => {
    const phone = "9779800045002";
    const { bikash, old, shownSince } = await released(phone, "2");
    const seen = await bikash.say("balance", /Rs 0/);
    expect(seen.text).not.toMatch(/Rs 400|no longer tied/);
    const fresh = await rig.holderOf(phone);
    expect(isFreshWaAccount(fresh)).toBe(true);
    expect(await availableOf(ts, fresh)).toBe(0);
    // The fresh account's notice reaches the chat; the old one's does not.
    await paidTopUp(fresh, 5_000);
    const notice = await bikash.waitFor((m) => ADDED.test(m.text));
    expect(notice.text).toMatch(/Rs 50/);
    await bikash.say("balance", /Rs 50/);
    await paidTopUp(old, 10_000);
    await waitUntil(() => withheldIn(old), "the old account's notice withheld");
    expect(shownSince().filter((t) => ADDED.test(t))).toHaveLength(1);
    expect(await availableOf(ts, old)).toBe(50_000);
    expect(await availableOf(ts, fresh)).toBe(5_000);
  });

  it("the fresh account is its own user id's: another sender is held on it", async () => {
    const phone = "9779800045003";
    const { asha, bikash } = await released(phone, "3");
    await bikash.say("balance", /Rs 0/);
    const fresh = await rig.holderOf(phone);
    await creditPerson(ts, fresh, 7_000);
    await bikash.say("balance", /Rs 70/);
    // The released account's old holder writes again: the number is the fresh account's now.
    const seen = await asha.say("balance", HELD);
    expect(seen.text).not.toMatch(/Rs 70|Rs 400/);
  });

  it("review: a cash-in whose number is released between typing it and the confirm books nothing", async () => {
    const phone = "9779800045004";
    const { old } = await rig.oldHolder(phone, "4");
    await fundAgent(ts, AGENT, "waid5-float-4");
    const floatOf = async () =>
      (await ts.system.ledger.balance(account.agent(AGENT))).availablePaisa;
    const float = await floatOf();
    const agent = ts.user(AGENT);
    await agent.say("/cashin", /customer's phone number/);
    await agent.say(phone.slice(3), /How much cash/);
    await agent.say("300", /Add .* to the balance of/);
    // Meanwhile the number's new holder writes, and an admin releases it from Asha's account:
    // the cash in front of the agent is not Asha's to receive.
    await rig.releaseTo(phone, "4");
    await agent.tap("✅ Confirm", /no longer the number of the account/);
    expect(await availableOf(ts, old)).toBe(0);
    expect(await floatOf()).toBe(float);
  });

  it("the old holder's Telegram chat joined earlier keeps the account's money, and is told the truth", async () => {
    const phone = "9779800045005";
    const { asha, old } = await rig.oldHolder(phone, "5", 40_000);
    const tg = ts.user(12_955);
    await linkTelegramTo(tg, asha, phone);
    await rig.releaseTo(phone, "5");
    await tg.say("/balance", /Rs 400/);
    // Sharing a number there: the account has none now, and the words say so (not an empty one).
    const seen = await shareContact(tg, "9779800045095", /no longer its own/);
    expect(seen.text).toMatch(/\/history/);
    expect(await ts.system.deps.accounts.phoneOf(old)).toBeNull();
    expect(await availableOf(ts, old)).toBe(40_000);
  });

  it("a fresh account released in turn: its messages go nowhere; the next holder starts fresh again", async () => {
    const phone = "9779800045006";
    const { bikash } = await released(phone, "6");
    await bikash.say("balance", /Rs 0/);
    const first = await rig.holderOf(phone);
    await creditPerson(ts, first, 2_000);
    const since = bikash.texts().length;
    const carol = await rig.heldBy(phone, "6", "Carol");
    await rig.release(phone);
    const seen = await carol.say("balance", /Rs 0/);
    expect(seen.text).not.toMatch(/Rs 20|Rs 400/);
    const second = await rig.holderOf(phone);
    expect(isFreshWaAccount(second)).toBe(true);
    expect(second).not.toBe(first);
    // The first fresh account's notice reaches nobody (it holds no number), never Telegram.
    await paidTopUp(first, 1_000);
    await waitUntil(
      () =>
        ts.logs.some((l) => l.includes("the account holds no number") && l.includes(String(first))),
      "the notice not sent",
    );
    expect(carol.texts().slice(since).join("\n")).not.toMatch(ADDED);
    expect(await availableOf(ts, first)).toBe(3_000);
  });

  it("a fresh account never takes an id in use: a counter set back skips the taken one", async () => {
    const phone = "9779800045007";
    const { bikash } = await released(phone, "7");
    await bikash.say("balance", /Rs 0/);
    const first = await rig.holderOf(phone);
    await creditPerson(ts, first, 7_000);
    // The counter restored behind (a reset, an old backup): its next n names Bikash's account.
    await redis.set(`${keyspace(ts.prefix).accountWaReleased}:n`, first - WA_FRESH_BASE - 1);
    const other = "9779800045008";
    const { bikash: carol } = await released(other, "8");
    const seen = await carol.say("balance", /Rs 0/);
    expect(seen.text).not.toMatch(/Rs 70|Rs 400/);
    const second = await rig.holderOf(other);
    expect(isFreshWaAccount(second)).toBe(true);
    expect(second).not.toBe(first);
    // Bikash's account keeps its number, its owner and its money.
    expect(await ts.system.deps.accounts.phoneOf(first)).toBe(phone);
    expect(await ts.system.deps.accounts.waUserOf(first)).toBe("NP.bikash-7");
    expect(await availableOf(ts, first)).toBe(7_000);
    await bikash.say("balance", /Rs 70/);
  });
});
