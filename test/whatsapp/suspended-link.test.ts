import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createRedisLinks } from "../../src/accounts/links.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { REDIS_URL } from "../support/redis.ts";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import { linkWhatsAppTo, standInOf, waPerson } from "../support/whatsapp-steps.ts";

/**
 * A WhatsApp chat joined to a Telegram account acts as it only for the sender who proved the join
 * (the link's seal: whatsapp/inbound.ts). Another writer from the number is held by the link gate
 * ("Is that Telegram account yours?"); the link is marked suspended before that answer, so the
 * Telegram account's own messages (a top-up's notice, with its balance) go to its Telegram chat,
 * not to the writer (review s25-f, B1: a link sealed by a profile name, or a writer with no user
 * id, was never dropped, and the notice reached the new writer). The mark is in Redis (any
 * instance reads it) and is cleared when the sealing sender writes again.
 */

const ts = useTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });
// A store client of its own: the mark is read as another instance reads it.
const redis = new Redis(REDIS_URL);
afterAll(() => redis.disconnect());

/** A top-up for the Telegram account, started in the WhatsApp chat, paid; its notice tried. */
async function paidTopUp(tgId: number, phone: string, paisa: number) {
  const topUps = ts.system.topUps!;
  const started = await topUps.start({
    userId: tgId,
    chatId: waPerson(phone),
    locale: "en",
    amountPaisa: paisa,
  });
  if (!started.ok) throw new Error("top-up start refused");
  return async () => {
    ts.system.khalti!.act(started.topUp.paymentId, "pay");
    await topUps.confirm("khalti", started.topUp.paymentId);
    let last: Awaited<ReturnType<typeof topUps.get>> = null;
    await waitUntil(async () => {
      last = await topUps.get(started.topUp.paymentId);
      return last?.notified !== undefined || last?.pushFailed !== undefined;
    }, "the top-up's notice tried");
    return last as Awaited<ReturnType<typeof topUps.get>>;
  };
}

describe("a linked chat's new writer, held by the link gate", () => {
  const cases = [
    { writer: "no user id", bikashId: undefined, phone: "9779800054001", tgId: 15_401 },
    { writer: "a user id", bikashId: "NP.bikash-5402", phone: "9779800054002", tgId: 15_402 },
  ];
  for (const { writer, bikashId, phone, tgId } of cases) {
    it(`gets none of the Telegram account's messages (a name-sealed link, writer with ${writer}); the sealer's return brings them back`, async () => {
      const tg = ts.user(tgId);
      await tg.register(phone);
      await tg.credit(30_000);
      // Asha's messages carry no user id (before Meta sent them): the join is sealed by her name.
      const asha = new WhatsAppChatUser(standInOf(ts), phone, { name: "Asha" });
      await asha.say("hi");
      await linkWhatsAppTo(asha, tg);
      await asha.say("balance", /Rs 300/);
      const pay = await paidTopUp(tg.id, phone, 20_000);
      const bikash = new WhatsAppChatUser(standInOf(ts), phone, {
        name: "Bikash",
        userId: bikashId,
      });
      await bikash.say("balance", /Is that Telegram account yours/);
      const since = bikash.texts().length;
      // The mark is in the store: another instance (its own client) reads it too.
      const links = createRedisLinks({ redis: redis as never, prefix: ts.prefix });
      expect(await links.sealedLinkOf(waPerson(phone))).toMatchObject({ suspended: true });

      const tgSince = tg.lastId();
      const topUp = await pay();
      expect(topUp?.pushFailed).toBeUndefined();
      expect(topUp?.notified).toBeDefined();
      expect(bikash.texts().slice(since).join("\n")).not.toMatch(/added to your balance|Rs 500/);
      const notice = await tg.emu.waitForBotMessage(tg.id, /added to your balance/, {
        afterId: tgSince,
      });
      expect(notice.text).toMatch(/Rs 200/);

      // Asha writes again under her name (her messages carry no user id; the stand-in would
      // otherwise send Bikash's, the number's last): the chat is the account's again, and so
      // are its notices.
      standInOf(ts).faults.omitUserIdOf(phone);
      await asha.say("balance", /Rs 500/);
      expect((await links.sealedLinkOf(waPerson(phone)))?.suspended).toBeUndefined();
      const again = bikash.texts().length;
      const second = await (await paidTopUp(tg.id, phone, 10_000))();
      expect(second?.pushFailed).toBeUndefined();
      await asha.waitFor(/added to your balance[\s\S]*Rs 600|Rs 100[\s\S]*Rs 600/);
      expect(asha.texts().slice(again).join("\n")).toMatch(/Rs 100/);
    });
  }
});

describe("a link with no seal (written before seals, or sealed by nothing)", () => {
  const cases = [
    {
      kind: "a legacy value",
      value: (tg: number) => String(tg),
      phone: "9779800057001",
      tgId: 15_701,
    },
    {
      kind: "an empty seal",
      value: (tg: number) => `${tg}|`,
      phone: "9779800057003",
      tgId: 15_703,
    },
  ];
  for (const { kind, value, phone, tgId } of cases) {
    it(`carries none of the Telegram account's money messages to the number's reader (${kind}): they go to its Telegram chat`, async () => {
      const tg = ts.user(tgId);
      await tg.register(phone);
      await tg.credit(30_000);
      const asha = new WhatsAppChatUser(standInOf(ts), phone, { name: "Asha" });
      await asha.say("hi");
      await linkWhatsAppTo(asha, tg);
      // The join as stored before seals existed: the inbound holds every writer of it, so nobody
      // reading the number proves it (review s25-g, S1).
      const links = keyspace(ts.prefix).accountLinks;
      await redis.hset(links, String(waPerson(phone)), value(tg.id));
      const since = asha.texts().length;
      const tgSince = tg.lastId();
      const topUp = await (await paidTopUp(tg.id, phone, 20_000))();
      expect(topUp?.pushFailed).toBeUndefined();
      const notice = await tg.emu.waitForBotMessage(tg.id, /added to your balance/, {
        afterId: tgSince,
      });
      expect(notice.text).toMatch(/Rs 500/);
      expect(asha.texts().slice(since).join("\n")).not.toMatch(/added to your balance|Rs 500/);
    });
  }
});

describe("a suspended name-sealed link and the first user id seen with the sealer's name", () => {
  /** Asha joins by her name alone; Bikash (a user id) writes and is held: the link is suspended. */
  async function suspendedBy(phone: string, tgId: number, bikashId: string) {
    const tg = ts.user(tgId);
    await tg.register(phone);
    await tg.credit(30_000);
    const asha = new WhatsAppChatUser(standInOf(ts), phone, { name: "Asha" });
    await asha.say("hi");
    await linkWhatsAppTo(asha, tg);
    const bikash = new WhatsAppChatUser(standInOf(ts), phone, { name: "Bikash", userId: bikashId });
    await bikash.say("balance", /Is that Telegram account yours/);
    const links = createRedisLinks({ redis: redis as never, prefix: ts.prefix });
    expect(await links.sealedLinkOf(waPerson(phone))).toMatchObject({ suspended: true });
    return { tg, links };
  }

  it("is no way in for the held writer renamed to the sealer's name (review s25-g, N1)", async () => {
    const phone = "9779800057002";
    const { links } = await suspendedBy(phone, 15_702, "NP.bikash-7002");
    const renamed = new WhatsAppChatUser(standInOf(ts), phone, {
      name: "Asha",
      userId: "NP.bikash-7002",
    });
    const m = await renamed.say("balance", /Is that Telegram account yours/);
    expect(m.text ?? "").not.toMatch(/Rs 300/);
    // Still suspended, still name-sealed: Asha herself (by her name, or her own first user id)
    // gets back in; a new code does too.
    expect(await links.sealedLinkOf(waPerson(phone))).toMatchObject({
      seal: "n:Asha",
      suspended: true,
    });
  });

  it("re-seals it for the sealer's own first user id, and clears the mark", async () => {
    const phone = "9779800057004";
    const { links, tg } = await suspendedBy(phone, 15_704, "NP.bikash-7004");
    const asha = new WhatsAppChatUser(standInOf(ts), phone, {
      name: "Asha",
      userId: "NP.asha-7004",
    });
    await asha.say("balance", /Rs 300/);
    expect(await links.sealedLinkOf(waPerson(phone))).toStrictEqual({
      personId: tg.id,
      seal: "u:NP.asha-7004",
    });
  });

  it("keeps every held user id (a second one is refused too), up to a few", async () => {
    const phone = "9779800057005";
    const { links } = await suspendedBy(phone, 15_705, "NP.bikash-7005");
    const chandra = new WhatsAppChatUser(standInOf(ts), phone, {
      name: "Chandra",
      userId: "NP.chandra-7005",
    });
    await chandra.say("balance", /Is that Telegram account yours/);
    expect(await links.sealedLinkOf(waPerson(phone))).toMatchObject({
      heldUsers: ["NP.bikash-7005", "NP.chandra-7005"],
    });
    const renamed = new WhatsAppChatUser(standInOf(ts), phone, {
      name: "Asha",
      userId: "NP.bikash-7005",
    });
    const m = await renamed.say("balance", /Is that Telegram account yours/);
    expect(m.text ?? "").not.toMatch(/Rs 300/);
  });
});
