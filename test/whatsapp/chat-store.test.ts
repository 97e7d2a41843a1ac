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
  it("offers the newest list's numbers until a message without buttons follows it", async () => {
    const store = make();
    const question = await store.nextMessageId(CHAT);
    await store.putShown(CHAT, question, list, ["wamid.q"]);
    expect(await store.lastButtons(CHAT)).toEqual({ messageId: question, choices: list.choices });
    expect(await store.messageOf("wamid.q")).toEqual({ chatId: CHAT, messageId: question });
    const after = await store.nextMessageId(CHAT);
    await store.putShown(CHAT, after, plain, ["wamid.p"]);
    expect(await store.lastButtons(CHAT)).toBeNull();
  });

  it("keeps each delivery status of a wamid once", async () => {
    const store = make();
    expect(await store.putStatus("wamid.s", "sent", 1)).toBe(true);
    expect(await store.putStatus("wamid.s", "sent", 2)).toBe(false);
    expect(await store.putStatus("wamid.s", "read", 3)).toBe(true);
    expect(await store.statuses("wamid.s")).toEqual({ sent: 1, read: 3 });
  });
});
