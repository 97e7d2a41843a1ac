import { afterAll, describe, expect, it } from "vitest";
import {
  createMemoryWaChatStore,
  createRedisWaChatStore,
  type Shown,
  type WaChatStore,
} from "../../src/whatsapp/chat-store.ts";
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
  buttons: '[["1. NTC","v:1"]]',
  choices: [{ n: 1, data: "v:1", label: "NTC" }],
  seen: [],
};
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
    expect(await listed(store, CHAT)).toEqual({ messageId: question, choices: list.choices });
    expect(await store.messageOf("wamid.q")).toEqual({ chatId: CHAT, messageId: question });
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
      buttons: { messageId: question, choices: list.choices },
    });
    expect(await store.lastInbound(chat)).toEqual({ at: at + 5, wamid: "wamid.in1" });
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
    expect(await store.lastInbound(chat)).toEqual({ at: at + 7, wamid: "wamid.in3" });
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
    expect(await store.shown(chat, id)).toEqual(list);
    expect(await store.messageOf("wamid.n1")).toEqual({ chatId: chat, messageId: id });
    const next = await store.putNew(chat, plain, ["wamid.n2"]);
    expect(next).toBe(id + 1);
    expect(await store.nextMessageId(chat)).toBe(next + 1);
    expect(await listed(store, chat)).toBeNull();
    await store.putNew(chat, list, ["wamid.n3"]);
    expect(await listed(store, chat)).toEqual({ messageId: next + 3, choices: list.choices });
  });

  it("keeps each delivery status of a wamid once", async () => {
    const store = make();
    expect(await store.putStatus("wamid.s", "sent", 1)).toBe(true);
    expect(await store.putStatus("wamid.s", "sent", 2)).toBe(false);
    expect(await store.putStatus("wamid.s", "read", 3)).toBe(true);
    expect(await store.statuses("wamid.s")).toEqual({ sent: 1, read: 3 });
  });
});
