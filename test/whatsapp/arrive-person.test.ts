import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createRedisLinks, type SealedLink } from "../../src/accounts/links.ts";
import type { Phone } from "../../src/accounts/phone.ts";
import { createRedisAccounts } from "../../src/accounts/store.ts";
import type { WaHold } from "../../src/accounts/wa-identity.ts";
import { createLogger } from "../../src/logger.ts";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { createRedisWaChatStore, type WaChatStore } from "../../src/whatsapp/chat-store.ts";
import { createInboundHandler } from "../../src/whatsapp/inbound.ts";
import { WA_UPDATE_BASE } from "../../src/whatsapp/inbound-queue.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { typedChoice } from "../../src/whatsapp/render.ts";
import { testRedis } from "../support/redis.ts";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";

/**
 * A customer's message on one Redis node: the person behind the phone and their language are read
 * in the arrival's own script (issue 31 target 4: one round trip and one socket write instead of
 * three: the arrival, the phone's owner, the locale at the first send). The locale read is the
 * person's: the owner's, or the chat's own when the phone is registered as it writes.
 */
const redis = testRedis("wa-arrive-person");
afterAll(() => redis.cleanup());
const logger = createLogger({ level: "silent", secrets: [] });

/** The commands a connection sends, by name and first key, while `fn` runs. */
async function commandsOf(r: Redis, fn: () => Promise<unknown>) {
  const sent: string[] = [];
  const send = r.sendCommand.bind(r);
  r.sendCommand = ((cmd: { name: string; args: unknown[] }) => {
    sent.push(cmd.name);
    return send(cmd as never);
  }) as typeof r.sendCommand;
  try {
    await fn();
  } finally {
    r.sendCommand = send;
  }
  return sent;
}

describe("the arrival reads the person on one Redis node", () => {
  const prefix = `${redis.prefix}store:`;
  const accounts = createRedisAccounts({ redis: redis.redis, prefix });
  const store = createRedisWaChatStore(redis.redis, prefix);
  const PHONE = "9779841000901";
  const CHAT = chatIdOfWaId(PHONE) as number;

  it("gives the phone's owner and the owner's language, in the arrival's one command", async () => {
    await accounts.register(4_201, PHONE as Phone);
    await accounts.setLocale(4_201, "ne");
    let arrived: Awaited<ReturnType<WaChatStore["arrive"]>> | undefined;
    const sent = await commandsOf(redis.redis, async () => {
      arrived = await store.arrive(CHAT, { at: Date.now(), wamid: "wamid.p1" }, "buttons", PHONE);
    });
    expect(sent).toEqual(["evalsha"]);
    expect(arrived?.person).toEqual({ owner: 4_201, locale: "ne", waUserId: null });
    expect(arrived?.messageId).toBeGreaterThan(0);
  });

  it("gives no owner and the chat's own language when nobody owns the phone", async () => {
    const phone = "9779841000902";
    const chat = chatIdOfWaId(phone) as number;
    const first = await store.arrive(chat, { at: Date.now(), wamid: "wamid.p2" }, "next", phone);
    expect(first.person).toEqual({ owner: null, locale: null, waUserId: null });
    await accounts.setLocale(chat, "hi");
    const again = await store.arrive(chat, { at: Date.now(), wamid: "wamid.p3" }, "none", phone);
    expect(again).toEqual({
      messageId: 0,
      buttons: null,
      person: { owner: null, locale: "hi", waUserId: null },
    });
  });

  it("still gives the newest list's choices when the phone has no owner", async () => {
    const phone = "9779841000903";
    const chat = chatIdOfWaId(phone) as number;
    const list = {
      text: "Which operator?",
      buttons: "bTnKey",
      choices: [{ n: 1, data: "v:1", label: "NTC" }],
      seen: [],
    };
    const id = await store.putNew(chat, list, ["wamid.l1"]);
    const typed = await store.arrive(chat, { at: Date.now(), wamid: "wamid.p5" }, "buttons", phone);
    expect(typed.person).toEqual({ owner: null, locale: null, waUserId: null });
    expect(typed.buttons).toEqual({ messageId: id, choices: [{ n: 1, data: "v:1", label: "" }] });
  });

  it("reads nothing more without a phone", async () => {
    const a = await store.arrive(CHAT, { at: Date.now(), wamid: "wamid.p4" }, "none");
    expect(a).toEqual({ messageId: 0, buttons: null });
  });
});

describe("the inbound handler takes the person the arrival read", () => {
  const prefix = `${redis.prefix}handler:`;
  const accounts = createRedisAccounts({ redis: redis.redis, prefix });
  const links = createRedisLinks({ redis: redis.redis, prefix });
  const PHONE = "9779841000911";
  const CHAT = chatIdOfWaId(PHONE) as number;
  const message = (wamid: string) => ({
    updateId: WA_UPDATE_BASE + 1,
    chatId: CHAT,
    message: { wamid, waId: PHONE, name: "Sita", timestamp: 1, kind: "text" as const, text: "hi" },
  });

  /** A handler on `store`; what it asked the accounts and what it told the locale lookup. */
  function handler(store: WaChatStore) {
    const asked: string[] = [];
    const found: unknown[][] = [];
    const people: number[] = [];
    const asking =
      <A extends unknown[], R>(name: string, fn: (...a: A) => R) =>
      (...a: A) => {
        asked.push(name);
        return fn(...a);
      };
    const handle = createInboundHandler({
      store,
      accounts: {
        phoneOf: asking("phoneOf", (id: number) => accounts.phoneOf(id)),
        claimPhone: asking("claimPhone", (id: number, p: Phone) => accounts.claimPhone(id, p)),
        links: {
          sealedLinkOf: asking("sealedLinkOf", (id: number) => links.sealedLinkOf(id)),
          unlink: asking("unlink", (id: number) => links.unlink(id)),
          link: asking("link", (id: number, person: number, seal?: string) =>
            links.link(id, person, seal),
          ),
          suspend: asking("suspend", (id: number, was: SealedLink, on: boolean) =>
            links.suspend(id, was, on),
          ),
        },
        ownerAndLocale: asking("ownerAndLocale", (p: Phone, or: number) =>
          accounts.ownerAndLocale(p, or),
        ),
        adoptWaUser: asking("adoptWaUser", (id: number, u: string) => accounts.adoptWaUser(id, u)),
        waUserOf: asking("waUserOf", (id: number) => accounts.waUserOf(id)),
        openWaFresh: asking("openWaFresh", (base: number, u: string) =>
          accounts.openWaFresh(base, u),
        ),
        holdWa: asking("holdWa", (id: number, hold: WaHold) => accounts.holdWa(id, hold)),
        waHoldOf: asking("waHoldOf", (id: number) => accounts.waHoldOf(id)),
      },
      handleUpdate: async (u) => {
        people.push(Number(u.message?.from?.id ?? 0));
      },
      isStaff: () => false,
      markRead: async () => {},
      typedChoice,
      commands: new Set(["start"]),
      now: Date.now,
      logger,
      personFound: (chatId, personId, locale) => found.push([chatId, personId, locale]),
    });
    return { handle, asked, found, people };
  }

  afterEach(async () => {
    await redis.redis.del(`${prefix}{accounts}:phones`, `${prefix}{accounts}:locales`);
  });

  it("does not ask for the phone's owner again, and hands the language on", async () => {
    await accounts.register(CHAT, PHONE as Phone);
    await accounts.setLocale(CHAT, "ne");
    const h = handler(createRedisWaChatStore(redis.redis, prefix));
    const sent = await commandsOf(redis.redis, () => h.handle(message("wamid.h1")));
    expect(h.asked).toEqual([]);
    expect(sent).toEqual(["evalsha"]);
    expect(h.found).toEqual([[CHAT, CHAT, "ne"]]);
    expect(h.people).toEqual([CHAT]);
  });

  it("reads the account's Meta user id with the arrival: no command more for the same sender", async () => {
    const h = handler(createRedisWaChatStore(redis.redis, prefix));
    const withUser = (wamid: string, userId: string) => {
      const m = message(wamid);
      return { ...m, message: { ...m.message, userId } };
    };
    await h.handle(withUser("wamid.u1", "NP.sita"));
    expect(h.asked).toEqual(["phoneOf", "adoptWaUser", "claimPhone"]);
    const sent = await commandsOf(redis.redis, () => h.handle(withUser("wamid.u2", "NP.sita")));
    expect(sent).toEqual(["evalsha"]);
    expect(h.asked).toHaveLength(3);
    expect(h.people).toEqual([CHAT, CHAT]);
    await redis.redis.del(`${prefix}{accounts}:wausers`, `${prefix}{accounts}:profiles`);
  });

  it("acts as a Telegram owner of the number only through the chat's proven link", async () => {
    await accounts.register(4_211, PHONE as Phone);
    await accounts.setLocale(4_211, "ne");
    const h = handler(createRedisWaChatStore(redis.redis, prefix));
    // No link: the chat acts as itself (held: the link gate answers), in its own language.
    await h.handle(message("wamid.h1a"));
    expect(h.people).toEqual([CHAT]);
    expect(h.found).toEqual([[CHAT, CHAT, null]]);
    // Sealed with the sender who proved it (the profile name: this payload carries no user id).
    await links.link(CHAT, 4_211, "n:Sita");
    const sent = await commandsOf(redis.redis, () => h.handle(message("wamid.h1b")));
    expect(h.asked).toEqual(["sealedLinkOf", "sealedLinkOf"]);
    expect(sent).toEqual(["evalsha", "hget"]);
    expect(h.found.at(-1)).toEqual([CHAT, 4_211, "ne"]);
    expect(h.people).toEqual([CHAT, 4_211]);
    await redis.redis.del(`${prefix}{accounts}:links`);
  });

  it("registers a new phone as the chat, with the chat's language", async () => {
    const h = handler(createRedisWaChatStore(redis.redis, prefix));
    await h.handle(message("wamid.h2"));
    // The chat's own account's Meta user id is read first (none): never claimed for another.
    expect(h.asked).toEqual(["phoneOf", "waUserOf", "claimPhone"]);
    expect(await accounts.userByPhone(PHONE as Phone)).toBe(CHAT);
    // No language set for the chat: null, which the locale lookup reads as English.
    expect(h.found).toEqual([[CHAT, CHAT, null]]);
    expect(h.people).toEqual([CHAT]);
  });

  it("asks for the owner and the language in one call where the store did not read them (a Cluster)", async () => {
    await accounts.register(CHAT, PHONE as Phone);
    await accounts.setLocale(CHAT, "hi");
    const h = handler(createMemoryWaChatStore());
    await h.handle(message("wamid.h4"));
    expect(h.asked).toEqual(["ownerAndLocale"]);
    expect(h.found).toEqual([[CHAT, CHAT, "hi"]]);
    expect(h.people).toEqual([CHAT]);
  });
});

describe("a WhatsApp step's Redis commands", () => {
  let shift = 0;
  const ts = useTestSystem({
    redis: true,
    env: { ACCESS_MODE: "prepaid" },
    now: () => Date.now() + shift,
  });

  it("reads neither the phone's owner nor the locale apart from the arrival", async () => {
    const standIn = ts.system.whatsapp;
    if (!standIn) throw new Error("local mode runs the WhatsApp stand-in");
    const u = new WhatsAppChatUser(standIn, "9779841000921", { name: "Maya" });
    await u.say("hi", /Namaste Maya/);
    // Past the 15 s the router trusts a chat's locale and person for: both would be read again.
    shift = 20_000;
    // Every connection of this process (the system runs in it), while the second "hi" is handled.
    const reads: string[] = [];
    const send = Redis.prototype.sendCommand;
    Redis.prototype.sendCommand = function (this: Redis, cmd: { name: string; args: unknown[] }) {
      const key = String(cmd.args[0] ?? "");
      if (cmd.name === "hget" && key.startsWith(ts.prefix)) reads.push(key.slice(ts.prefix.length));
      return send.call(this, cmd as never);
    } as typeof send;
    try {
      await u.say("hi", /Namaste Maya/);
    } finally {
      Redis.prototype.sendCommand = send;
    }
    expect(reads.filter((k) => k.includes("{accounts}"))).toEqual([]);
  });
});
