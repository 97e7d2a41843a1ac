import { describe, expect, it } from "vitest";
import { classifyApiError, isUndeliverable, isUneditable } from "../../src/notify/api-errors.ts";
import { withAccount } from "../../src/telegram/call-account.ts";
import { WA_CHAT_BASE } from "../../src/whatsapp/chat-ids.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * A message addressed to a released account's WhatsApp chat (chat-calls.ts `whose`): the old
 * account's (its account said) goes to its old holder's Telegram chat; the new holder's (the chat linked to their
 * account, the number registered to it) to the chat itself; one whose account is not said, while
 * once the number was released, is not delivered (400) and goes nowhere, even when the chat
 * stands for nobody (review s24-j); a document the
 * Telegram chat cannot take is not delivered either, never answered as sent (review s24-g).
 */
const CHAT = WA_CHAT_BASE + 9779841000951;
const OLD_TG = 51_001;
const NEW_TG = 51_002;

function rig(now: { holder: number | null; link: number | null }) {
  const store = createMemoryWaChatStore();
  const sent: number[] = [];
  const passed: string[] = [];
  const { fetch } = testRouter({
    store,
    send: async (m) => {
      sent.push(Number((m as { to?: unknown }).to));
      return { wamid: `wamid.${sent.length}` };
    },
    telegram: async (_input, init) => {
      passed.push(String(init?.body));
      return new Response(JSON.stringify({ ok: true, result: { message_id: 1 } }));
    },
    heldChat: async (account) => account === CHAT,
    reachOf: async () => ({ chatId: OLD_TG }),
    chatNowOf: async () => now,
  });
  const call = (method: string, body: Record<string, unknown>) =>
    fetch(`http://bot.test/botX/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chat_id: CHAT, ...body }),
    }).then((r) => r.json() as Promise<{ ok: boolean; error_code?: number; description?: string }>);
  const arrive = () => store.arrive(CHAT, { at: Date.now(), wamid: "wamid.in" }, "none");
  return { sent, passed, call, arrive };
}

describe("a released chat that now acts as the new holder's account", () => {
  const linked = { holder: NEW_TG, link: NEW_TG };

  it("the new holder's message goes to the chat itself, never to the old holder", async () => {
    const r = rig(linked);
    await r.arrive();
    const a = await withAccount(NEW_TG, () => r.call("sendMessage", { text: "Order 2 succeeded" }));
    expect(a.ok).toBe(true);
    expect(r.sent).toHaveLength(1);
    expect(r.passed).toEqual([]);
  });

  it("the old account's message goes to the old holder's Telegram chat", async () => {
    const r = rig(linked);
    const a = await withAccount(CHAT, () => r.call("sendMessage", { text: "Order 1 succeeded" }));
    expect(a.ok).toBe(true);
    expect(r.sent).toEqual([]);
    expect(r.passed).toHaveLength(1);
    expect(JSON.parse(r.passed[0] ?? "{}")).toMatchObject({ chat_id: OLD_TG });
  });

  it("a message whose account is not said is not delivered, to nobody", async () => {
    const r = rig(linked);
    const a = await r.call("sendMessage", { text: "Your top-up was added" });
    expect(a).toMatchObject({ ok: false, error_code: 400 });
    expect(a.description).toMatch(/not delivered/);
    expect(r.sent).toEqual([]);
    expect(r.passed).toEqual([]);
  });

  // Review s25-a S1: refused, it was retried (a reminder) or lost (a result) though the account's
  // own Telegram chat was there to take it.
  it("another account's message while the chat no longer acts as it: to that account's Telegram chat", async () => {
    const r = rig({ holder: NEW_TG, link: null });
    const a = await withAccount(NEW_TG, () => r.call("sendMessage", { text: "Order 2 succeeded" }));
    expect(a.ok).toBe(true);
    expect(r.sent).toEqual([]);
    expect(r.passed).toHaveLength(1);
    expect(JSON.parse(r.passed[0] ?? "{}")).toMatchObject({ chat_id: NEW_TG });
  });
});

/**
 * An edit of an earlier message (a receipt brought to its final outcome) to a released chat: the
 * message is in a chat another person reads now, so it is not edited there, and never answered as
 * sent (review s25-left, 1: it was dropped and reported "sent", so a caller took it as shown and
 * ran no fallback push or dead letter). The answer is a 400 the
 * notifier reads as "cannot be edited": an edit carrying a push's outcome hands it back to be
 * pushed anew, as its order's account (`withAccount`).
 */
describe("an edit to a released chat", () => {
  const edit = (r: ReturnType<typeof rig>) =>
    r.call("editMessageText", { message_id: 3, text: "Order 1: success" });
  const refused = (a: { ok: boolean; error_code?: number; description?: string }) => {
    expect(a).toMatchObject({ ok: false, error_code: 400 });
    expect(a.description).toMatch(/not delivered/);
    const f = classifyApiError(a);
    expect(isUneditable(f) && isUndeliverable(f)).toBe(true);
  };

  for (const [said, now] of [
    ["acting as the new holder", { holder: NEW_TG, link: NEW_TG }],
    ["standing for nobody", { holder: null, link: null }],
  ] as const) {
    it(`naming no account, the chat ${said}: not delivered, nothing sent anywhere`, async () => {
      const r = rig(now);
      await r.arrive();
      refused(await edit(r));
      expect(r.sent).toEqual([]);
      expect(r.passed).toEqual([]);
    });
  }

  it("naming the old account: not delivered, never edited in the chat nor carried", async () => {
    const r = rig({ holder: NEW_TG, link: NEW_TG });
    await r.arrive();
    refused(await withAccount(CHAT, () => edit(r)));
    expect(r.sent).toEqual([]);
    expect(r.passed).toEqual([]);
  });
});

describe("a released chat of nobody else's", () => {
  it("a message whose account is not said is not delivered, never to the old holder (s24-j)", async () => {
    const r = rig({ holder: null, link: null });
    const a = await r.call("sendMessage", { text: "Reminder: recharge 9841234567 Rs 120" });
    expect(a).toMatchObject({ ok: false, error_code: 400 });
    expect(a.description).toMatch(/not delivered/);
    expect(r.sent).toEqual([]);
    expect(r.passed).toEqual([]);
  });

  it("the old account's message (its account said) goes to the old holder's Telegram chat", async () => {
    const r = rig({ holder: null, link: null });
    const a = await withAccount(CHAT, () =>
      r.call("sendMessage", { text: "Your top-up was added" }),
    );
    expect(a.ok).toBe(true);
    expect(r.passed).toHaveLength(1);
    expect(JSON.parse(r.passed[0] ?? "{}")).toMatchObject({ chat_id: OLD_TG });
  });

  it("a document the Telegram chat cannot take is not delivered, never answered as sent", async () => {
    const r = rig({ holder: null, link: null });
    const a = await withAccount(CHAT, () =>
      r.call("sendDocument", { document: "file-1", caption: "Receipt" }),
    );
    expect(a).toMatchObject({ ok: false, error_code: 400 });
    expect(a.description).toMatch(/not delivered/);
    expect(r.sent).toEqual([]);
    expect(r.passed).toEqual([]);
  });
});
