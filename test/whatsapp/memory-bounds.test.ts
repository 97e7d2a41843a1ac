import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import type { Shown } from "../../src/whatsapp/chat-store.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { createMemoryInboundQueue } from "../../src/whatsapp/memory-inbound-queue.ts";
import type { WaInboundMessage } from "../../src/whatsapp/types.ts";

/**
 * The memory-only WhatsApp stores `npm start` uses without Redis forget as the Redis ones expire
 * (h-notify32, review nit): a wamid after the 7 days Meta may redeliver it (the seen key's EX), a
 * chat 35 days after its last write (the chat hash's EXPIRE), a chat's records past the newest 40
 * messages (the hash's sweep). Before, their maps only grew while the process ran. The clock is
 * the test's.
 */
const DAY = 86_400_000;
const CHAT = 8_009_779_841_000_321;
const logger = createLogger({ level: "silent", secrets: [] });
const plain = (text: string): Shown => ({ text, buttons: "", choices: [], seen: [] });
const list: Shown = {
  text: "Which operator?",
  buttons: "bTnKey",
  choices: [{ n: 1, data: "v:1", label: "NTC" }],
  seen: [],
};

describe("memory-only WhatsApp stores are bounded as Redis's expire", () => {
  it("the inbound queue forgets a wamid 7 days after it was seen", async () => {
    let clock = Date.UTC(2026, 10, 1);
    const queue = createMemoryInboundQueue(logger, () => clock);
    const message = { wamid: "wamid.bound.1" } as WaInboundMessage;
    expect(await queue.enqueue(CHAT, message)).toBe(true);
    clock += 7 * DAY - 1;
    expect(await queue.enqueue(CHAT, message)).toBe(false);
    clock += 1;
    // Before: false for as long as the process ran (the seen set never trimmed).
    expect(await queue.enqueue(CHAT, message)).toBe(true);
  });

  it("the chat store forgets a chat 35 days after its last write, not before", async () => {
    let clock = Date.UTC(2026, 10, 1);
    const store = createMemoryWaChatStore({ now: () => clock });
    await store.arrive(CHAT, { at: clock }, "none");
    const id = await store.putNew(CHAT, plain("Order placed"), ["wamid.out.1"]);
    clock += 20 * DAY;
    // A write inside the time starts it again (Redis: every script's EXPIRE).
    await store.putStatus(CHAT, "wamid.out.1", "delivered");
    clock += 35 * DAY - 1;
    expect(await store.messageOf(CHAT, "wamid.out.1")).toBe(id);
    expect(await store.statuses(CHAT, "wamid.out.1")).toEqual(["delivered"]);
    clock += 1;
    // Before: all of it kept as long as the process ran.
    expect(await store.messageOf(CHAT, "wamid.out.1")).toBeNull();
    expect(await store.shown(CHAT, id)).toBeNull();
    expect(await store.lastInbound(CHAT)).toBeNull();
    expect(await store.statuses(CHAT, "wamid.out.1")).toEqual([]);
    expect(await store.nextMessageId(CHAT)).toBe(1);
  });

  it("a chat keeps the newest 40 messages' records and its newest list, as Redis's sweep", async () => {
    const store = createMemoryWaChatStore({ now: () => Date.UTC(2026, 10, 1) });
    const listId = await store.putNew(CHAT, list, ["wamid.list"]);
    for (let i = 1; i <= 120; i++) await store.putNew(CHAT, plain(`m${i}`), [`wamid.m${i}`]);
    // Before: every one of the 121 kept.
    expect(await store.messageOf(CHAT, "wamid.m1")).toBeNull();
    expect(await store.shown(CHAT, 2)).toBeNull();
    expect(await store.messageOf(CHAT, "wamid.m120")).toBe(121);
    expect(await store.messageOf(CHAT, "wamid.list")).toBe(listId);
    expect((await store.shown(CHAT, listId))?.buttons).toBe("bTnKey");
  });
});
