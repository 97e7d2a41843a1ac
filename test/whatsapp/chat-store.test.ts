import { afterAll, describe, expect, it } from "vitest";
import {
  createRedisWaChatStore,
  type Shown,
  type WaChatStore,
} from "../../src/whatsapp/chat-store.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { testRedis } from "../support/redis.ts";

/**
 * The WhatsApp chat store on memory and Redis alike: a typed number stands for a row of the newest
 * list only while nothing else was shown after it; a tap's wamid names its chat message; statuses
 * are kept once each.
 */
const redis = testRedis("wa-chat-store");
afterAll(() => redis.cleanup());

const CHAT = 8_009_779_841_000_777;
const list: Shown = {
  text: "Which operator?",
  buttons: "bTnKey",
  choices: [
    { n: 1, data: "v:1", label: "NTC" },
    { n: 2, data: "v:2", label: "Ncell" },
  ],
  seen: [],
};
/** The choices as kept: their data by number (a typed number needs no label). */
const kept = list.choices.map((c) => ({ ...c, label: "" }));
const plain: Shown = { text: "Order placed", buttons: "", choices: [], seen: [] };

describe.each([
  ["memory", () => createMemoryWaChatStore()],
  ["redis", () => createRedisWaChatStore(redis.redis, `${redis.prefix}${Math.random()}:`)],
])("the WhatsApp chat store (%s)", (_name, make: () => WaChatStore) => {
  /** The newest buttons, as a customer's typed message reads them (arrive takes an id too). */
  const listed = async (store: WaChatStore, chat: number) =>
    (await store.arrive(chat, { at: Date.now(), wamid: `wamid.look.${chat}` }, "buttons")).buttons;
  it("offers the newest list's numbers until a message without buttons follows it", async () => {
    const store = make();
    const question = await store.nextMessageId(CHAT);
    await store.putShown(CHAT, question, list, ["wamid.q"]);
    expect(await listed(store, CHAT)).toEqual({ messageId: question, choices: kept });
    expect(await store.messageOf(CHAT, "wamid.q")).toBe(question);
    // A wamid names a message of its own chat only.
    expect(await store.messageOf(CHAT + 9, "wamid.q")).toBeNull();
    const after = await store.nextMessageId(CHAT);
    await store.putShown(CHAT, after, plain, ["wamid.p"]);
    expect(await listed(store, CHAT)).toBeNull();
  });

  it("records a customer's message and reads what its handling needs in one call", async () => {
    const store = make();
    const chat = CHAT + 1;
    // knownInbound keeps a day of messages: the times are now's.
    const at = Date.now();
    const question = await store.nextMessageId(chat);
    await store.putShown(chat, question, list, ["wamid.q2"]);
    const typed = await store.arrive(chat, { at: at + 5, wamid: "wamid.in1" }, "buttons");
    expect(typed).toEqual({
      messageId: question + 1,
      buttons: { messageId: question, choices: kept },
    });
    expect(await store.lastInbound(chat)).toMatchObject({ at: at + 5 });
    expect(store.knownInbound(chat)).toEqual({ at: at + 5, wamid: "wamid.in1" });
    // A tap takes no id (its message is the one tapped); other kinds take the next one.
    expect(await store.arrive(chat, { at: at + 6, wamid: "wamid.in2" }, "none")).toEqual({
      messageId: 0,
      buttons: null,
    });
    expect(await store.arrive(chat, { at: at + 7, wamid: "wamid.in3" }, "next")).toEqual({
      messageId: question + 2,
      buttons: null,
    });
    expect(await store.lastInbound(chat)).toMatchObject({ at: at + 7 });
    expect(await store.nextMessageId(chat)).toBe(question + 3);
    // Shown over by a message without buttons: no list to answer with a number.
    await store.putShown(chat, question + 3, plain, ["wamid.p2"]);
    expect(
      (await store.arrive(chat, { at: at + 8, wamid: "wamid.in4" }, "buttons")).buttons,
    ).toBeNull();
  });

  it("numbers a new message as it records it, after the ids already taken", async () => {
    const store = make();
    const chat = CHAT + 2;
    const taken = await store.nextMessageId(chat);
    const id = await store.putNew(chat, list, ["wamid.n1"]);
    expect(id).toBe(taken + 1);
    expect(await store.shown(chat, id)).toEqual({
      text: list.text,
      buttons: list.buttons,
      seen: list.seen,
    });
    expect(await store.messageOf(chat, "wamid.n1")).toBe(id);
    const next = await store.putNew(chat, plain, ["wamid.n2"]);
    expect(next).toBe(id + 1);
    expect(await store.nextMessageId(chat)).toBe(next + 1);
    expect(await listed(store, chat)).toBeNull();
    await store.putNew(chat, list, ["wamid.n3"]);
    expect(await listed(store, chat)).toEqual({ messageId: next + 3, choices: kept });
  });

  it("keeps no words of a secret message, not even before it is delivered", async () => {
    const store = make();
    const chat = CHAT + 5;
    const link = `Your login link: https://shop.example/dashboard/login/${"T".repeat(43)}`;
    const id = await store.putNew(chat, { ...plain, text: link, secret: true }, ["wamid.s1"]);
    expect(await store.shown(chat, id)).toMatchObject({ text: null, buttons: "" });
    // It is still a message of the chat: its wamid names it, its statuses are kept.
    expect(await store.messageOf(chat, "wamid.s1")).toBe(id);
    expect(await store.putStatus(chat, "wamid.s1", "sent")).toBe(true);
    // A message after it, not secret, keeps its words until delivered as ever.
    const next = await store.putNew(chat, plain, ["wamid.s2"]);
    expect((await store.shown(chat, next))?.text).toBe(plain.text);
  });

  it("keeps each delivery status of a wamid once, before and after it is recorded", async () => {
    const store = make();
    const chat = CHAT + 3;
    // Meta's "sent" may come before the send's answer is recorded.
    expect(await store.putStatus(chat, "wamid.s", "sent")).toBe(true);
    const id = await store.putNew(chat, plain, ["wamid.s"]);
    expect(await store.putStatus(chat, "wamid.s", "sent")).toBe(false);
    expect(await store.putStatus(chat, "wamid.s", "read")).toBe(true);
    expect(await store.putStatus(chat, "wamid.s", "read")).toBe(false);
    expect(await store.statuses(chat, "wamid.s")).toEqual(["sent", "read"]);
    expect(await store.messageOf(chat, "wamid.s")).toBe(id);
  });
});

describe("the WhatsApp chat store on Redis: one small hash per chat", () => {
  const prefix = () => `${redis.prefix}${Math.random()}:`;
  const chatKey = (p: string, chat: number) => `${p}{wachat:${chat}}`;
  const question = (i: number): Shown => ({
    // Devanagari: 3 bytes a character, so a question is several pieces of 64 bytes.
    text: `प्रश्न ${i}: कुन अपरेटर? Which operator should I recharge this time, number ${i}?`,
    buttons: "bTnKey",
    choices: Array.from({ length: 9 }, (_, n) => ({
      n: n + 1,
      data: `v:operator-${n}`,
      label: "",
    })),
    seen: ["abcdef"],
  });

  const many = Array.from({ length: 12 }, (_, i) => `seen-${i}`.padEnd(12, "x"));
  it.each([
    ["its statuses come", true],
    ["no status ever comes", false],
  ])("stays a listpack of bounded size however long the chat (%s)", async (_, statuses) => {
    const p = prefix();
    const store = createRedisWaChatStore(redis.redis, p);
    const chat = CHAT + 10;
    for (let i = 1; i <= 120; i++) {
      // Every fifth: as many texts shown as a record keeps and more, words of the most pieces.
      const most = { ...question(i), text: "प्र".repeat(2000), seen: many };
      const shown = i % 5 === 0 ? most : i % 3 === 0 ? plain : question(i);
      const id = await store.putNew(chat, shown, [`wamid.b${i}`]);
      for (const s of statuses ? (["sent", "delivered", "read"] as const) : [])
        await store.putStatus(chat, `wamid.b${i}`, s);
      await store.arrive(chat, { at: Date.now(), wamid: `wamid.in.${i}` }, "buttons");
      expect(id).toBeGreaterThan(0);
    }
    const key = chatKey(p, chat);
    expect(await redis.redis.object("ENCODING", key)).toBe("listpack");
    // 40 records, the wamids of about as many, a few fields more: under Redis's 128 by default.
    expect(await redis.redis.hlen(key)).toBeLessThan(128);
    // Older than the chat keeps: a tap on it is no longer active; the newest still named.
    expect(await store.messageOf(chat, "wamid.b1")).toBeNull();
    expect(await store.messageOf(chat, "wamid.b119")).not.toBeNull();
  });

  it("keeps a message's words until delivered, and while it has the newest buttons", async () => {
    const p = prefix();
    const store = createRedisWaChatStore(redis.redis, p);
    const chat = CHAT + 11;
    const answer = await store.putNew(chat, plain, ["wamid.a"]);
    const asked = await store.putNew(chat, question(1), ["wamid.q"]);
    expect((await store.shown(chat, answer))?.text).toBe(plain.text);
    // A failed 131047 may still come for what is not delivered: its words are there to resend.
    await store.putStatus(chat, "wamid.a", "sent");
    expect((await store.shown(chat, answer))?.text).toBe(plain.text);
    await store.putStatus(chat, "wamid.a", "delivered");
    expect((await store.shown(chat, answer))?.text).toBeNull();
    // The question, delivered, keeps its words (a new page of its buttons shows them again)...
    await store.putStatus(chat, "wamid.q", "delivered");
    expect((await store.shown(chat, asked))?.text).toBe(question(1).text);
    // ...until a newer message has buttons.
    await store.putNew(chat, question(2), ["wamid.q2"]);
    expect((await store.shown(chat, asked))?.text).toBeNull();
    expect((await store.shown(chat, asked))?.seen).toEqual(["abcdef"]);
    // Buttons neither numbered nor paged (amounts): the words go once delivered, newest or not.
    const amounts = { ...question(3), choices: [] };
    const howMuch = await store.putNew(chat, amounts, ["wamid.q3"]);
    await store.putStatus(chat, "wamid.q3", "read");
    expect((await store.shown(chat, howMuch))?.text).toBeNull();
    const paged = await store.putNew(chat, { ...amounts, paged: true }, ["wamid.q4"]);
    await store.putStatus(chat, "wamid.q4", "delivered");
    expect((await store.shown(chat, paged))?.text).toBe(amounts.text);
    // Paged, its words stay after a newer message has buttons (a new page shows them again)...
    await store.putNew(chat, question(5), ["wamid.q5"]);
    await store.putStatus(chat, "wamid.q5", "delivered");
    expect((await store.shown(chat, paged))?.text).toBe(amounts.text);
    // ...until its buttons are taken away.
    await store.putShown(chat, paged, { ...amounts, text: null, buttons: "", choices: [] }, []);
    expect((await store.shown(chat, paged))?.text).toBeNull();
  });

  it("a redelivered status of an older rendering does not drop the newest one's words", async () => {
    const store = createRedisWaChatStore(redis.redis, prefix());
    const chat = CHAT + 12;
    const id = await store.putNew(chat, plain, ["wamid.r1"]);
    await store.putShown(chat, id, { ...plain, text: "Order placed, paid" }, ["wamid.r2"]);
    await store.putStatus(chat, "wamid.r1", "delivered");
    expect((await store.shown(chat, id))?.text).toBe("Order placed, paid");
    await store.putStatus(chat, "wamid.r2", "delivered");
    expect((await store.shown(chat, id))?.text).toBeNull();
  });

  it("a list whose buttons were taken away answers no typed number", async () => {
    const store = createRedisWaChatStore(redis.redis, prefix());
    const chat = CHAT + 13;
    const id = await store.putNew(chat, question(1), ["wamid.t1"]);
    const typed = () => store.arrive(chat, { at: Date.now(), wamid: "wamid.t" }, "buttons");
    expect((await typed()).buttons?.messageId).toBe(id);
    await store.putShown(chat, id, { ...question(1), text: null, buttons: "", choices: [] }, []);
    expect((await typed()).buttons).toBeNull();
  });

  it("reads the customer's last message from another instance to the second, never later", async () => {
    const p = prefix();
    const chat = CHAT + 14;
    const at = 1_795_697_222_797;
    await createRedisWaChatStore(redis.redis, p).arrive(chat, { at, wamid: "w" }, "none");
    const other = await createRedisWaChatStore(redis.redis, p).lastInbound(chat);
    expect(other).toEqual({ at: 1_795_697_222_000 });
  });

  /** A reply: a message of 3 renderings (a long answer split in parts), delivered. */
  const reply = async (store: WaChatStore, chat: number, i: number) => {
    const w = [0, 1, 2].map((k) => `wamid.r${i}.${k}`);
    await store.putNew(chat, plain, w);
    for (const x of w) await store.putStatus(chat, x, "delivered");
  };
  const fields = async (p: string, chat: number) =>
    Object.keys(await redis.redis.hgetall(chatKey(p, chat)));

  it("a question still on screen is answered however many messages came after it", async () => {
    const p = prefix();
    const store = createRedisWaChatStore(redis.redis, p);
    const chat = CHAT + 16;
    for (let i = 1; i <= 50; i++) await reply(store, chat, i);
    const asked = await store.putNew(chat, question(1), ["wamid.ask"]);
    expect(asked).toBe(51);
    await store.putStatus(chat, "wamid.ask", "delivered");
    const exchange = async (i: number) => {
      await store.arrive(chat, { at: Date.now(), wamid: `wamid.c${i}` }, "next");
      await reply(store, chat, 100 + i);
    };
    for (let i = 0; i < 21; i++) await exchange(i);
    expect(await store.messageOf(chat, "wamid.ask")).toBe(asked);
    expect(await store.shown(chat, asked)).not.toBeNull();
    // The flow asks it again: a new rendering of the same message, then another message.
    await store.putShown(chat, asked, { ...question(1), text: "Again: which operator?" }, [
      "wamid.again",
    ]);
    await exchange(21);
    expect(await store.messageOf(chat, "wamid.again")).toBe(asked);
    expect(await store.messageOf(chat, "wamid.ask")).toBe(asked);
    // A reply's renderings from as long ago go; the hash stays within Redis's default 128.
    expect(await store.messageOf(chat, "wamid.r1.0")).toBeNull();
    expect((await fields(p, chat)).length).toBeLessThanOrEqual(128);
  });

  it("lets old records, words and renderings go however the ids are spaced", async () => {
    const p = prefix();
    const store = createRedisWaChatStore(redis.redis, p);
    const chat = CHAT + 17;
    // Records from before issue 31, without buttons (buttons "": nothing to answer).
    const old = JSON.stringify({ text: "Done", buttons: "", choices: [], seen: [] });
    await redis.redis.hset(chatKey(p, chat), { seq: "5", "m:1": old, "m:3": old, "m:5": old });
    for (let i = 0; i < 300; i++) {
      // The customer writes 1 to 3 messages (each takes an id), the bot answers.
      for (let c = 0; c <= i % 3; c++)
        await store.arrive(chat, { at: Date.now(), wamid: `wamid.c${i}.${c}` }, "next");
      if (i % 2 === 0) await reply(store, chat, i);
      // Every other answer: no status ever comes (its words are not kept for long either).
      else await store.putNew(chat, plain, [`wamid.u${i}`]);
    }
    const seq = Number(await redis.redis.hget(chatKey(p, chat), "seq"));
    const all = await fields(p, chat);
    const ids = (re: RegExp) =>
      all.flatMap((f) => {
        const m = re.exec(f);
        return m ? [Number(m[1])] : [];
      });
    expect(ids(/^m:(\d+)$/).every((n) => n > seq - 40)).toBe(true);
    expect(ids(/^t:(\d+)/).every((n) => n > seq - 16)).toBe(true);
    expect(all.length).toBeLessThanOrEqual(128);
    expect(await redis.redis.object("ENCODING", chatKey(p, chat))).toBe("listpack");
  });

  it("lets statuses of unknown wamids go once the chat has no buttons left", async () => {
    const p = prefix();
    const store = createRedisWaChatStore(redis.redis, p);
    const chat = CHAT + 19;
    await store.putNew(chat, plain, ["wamid.first"]);
    // Late read receipts for renderings the chat no longer knows (swept, or sent from elsewhere).
    for (let i = 0; i < 60; i++) await store.putStatus(chat, `wamid.late${i}`, "read");
    for (let i = 0; i < 100; i++) {
      await store.arrive(chat, { at: Date.now(), wamid: `wamid.in${i}` }, "next");
      await store.putNew(chat, plain, [`wamid.p${i}`]);
    }
    const all = await redis.redis.hgetall(chatKey(p, chat));
    const unknown = Object.entries(all).filter(([f, v]) => f.startsWith("w") && v.startsWith("0."));
    expect(unknown).toEqual([]);
    expect(Object.keys(all).length).toBeLessThanOrEqual(128);
  });

  it("a message whose choices alone fill the pieces kept shows no words, not its choices", async () => {
    const store = createRedisWaChatStore(redis.redis, prefix());
    const chat = CHAT + 18;
    const choices = Array.from({ length: 80 }, (_, n) => ({
      n: n + 1,
      data: `v:a-long-pack-code-${n}`,
      label: "",
    }));
    const id = await store.putNew(chat, { ...question(1), choices }, ["wamid.long"]);
    expect((await store.shown(chat, id))?.text).toBeNull();
  });

  it("keeps a record within 64 bytes whatever buttons a record from before issue 31 had", async () => {
    const p = prefix();
    const store = createRedisWaChatStore(redis.redis, p);
    const chat = CHAT + 19;
    // Its buttons as JSON with Devanagari labels: 6 characters of it are 14 bytes.
    const buttons = JSON.stringify(["नेपाल टेलिकम", "v:1"]);
    await redis.redis.hset(chatKey(p, chat), { seq: "3", "m:3": "{}" });
    const seen = Array.from({ length: 7 }, (_, i) => `seen${i}`.padEnd(6, "x"));
    // Words of 10 pieces and more, a rendering not yet delivered: every part at its longest.
    const long = { text: "प्र".repeat(300), buttons, choices: [], seen };
    await store.putShown(chat, 3, long, ["wamid.old.again"]);
    const record = (await redis.redis.hget(chatKey(p, chat), "m:3")) ?? "";
    expect(Buffer.byteLength(record)).toBeLessThanOrEqual(64);
    expect(await redis.redis.object("ENCODING", chatKey(p, chat))).toBe("listpack");
  });

  it("reads what was written before issue 31", async () => {
    const p = prefix();
    const chat = CHAT + 15;
    const old = { text: "Which operator?", buttons: "[]", choices: [], seen: ["PPrE_4Pd_hQT"] };
    await redis.redis.hset(chatKey(p, chat), {
      seq: "3",
      "m:3": JSON.stringify(old),
      in: JSON.stringify({ at: 1_795_697_222_797, wamid: "wamid.old" }),
    });
    await redis.redis.set(`${p}wa:wamid:wamid.old3`, `${chat}:3`);
    const store = createRedisWaChatStore(redis.redis, p);
    expect(await store.shown(chat, 3)).toEqual({ text: old.text, buttons: "[]", seen: old.seen });
    expect(await store.messageOf(chat, "wamid.old3")).toBe(3);
    expect(await store.messageOf(chat + 1, "wamid.old3")).toBeNull();
    expect(await store.lastInbound(chat)).toEqual({ at: 1_795_697_222_797 });
  });
});
