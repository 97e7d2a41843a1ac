import { describe, expect, it } from "vitest";
import { withAccount } from "../../src/telegram/call-account.ts";
import { WA_CHAT_BASE } from "../../src/whatsapp/chat-ids.ts";
import { answeringIn } from "../../src/whatsapp/held.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * A message naming a released chat's own account (the old holder's), sent while the bot answers
 * that chat (its new holder writing, e.g. an admin's /reverse), goes to the old holder's other
 * chat, never to the chat (review s24-k, 1). While the number is still the account's own (a hold,
 * its own user id writing), the answer goes to the chat as before; an unnamed answer always does.
 */

const CHAT = WA_CHAT_BASE + 9779841000951;
const OLD_TG = 51_001;
const NEW_TG = 51_002;

function router(holder: number | null) {
  const sent: number[] = [];
  const passed: string[] = [];
  const { fetch } = testRouter({
    store: createMemoryWaChatStore(),
    send: async (m) => {
      sent.push(Number((m as { to?: unknown }).to));
      return { wamid: `w${sent.length}` };
    },
    telegram: async (_i, init) => {
      passed.push(String(init?.body));
      return new Response(JSON.stringify({ ok: true, result: { message_id: 1 } }));
    },
    heldChat: async (account) => account === CHAT,
    reachOf: async () => ({ chatId: OLD_TG }),
    chatNowOf: async () => ({ holder, link: holder === CHAT ? null : holder }),
  });
  const call = (text: string) => () =>
    fetch("http://bot.test/botX/sendMessage", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chat_id: CHAT, text }),
    });
  return { sent, passed, call };
}

describe("a released chat's own account named in an answer to that chat", () => {
  it("goes to the old holder's other chat, not to the new holder writing", async () => {
    const r = router(NEW_TG);
    const answer = await answeringIn(CHAT, () =>
      withAccount(CHAT, r.call("old holder's reversal notice, balance 500")),
    );
    expect(((await answer.json()) as { ok: boolean }).ok).toBe(true);
    expect(r.sent).toEqual([]);
    expect(r.passed).toHaveLength(1);
    expect(r.passed[0]).toContain(`"chat_id":${OLD_TG}`);
    // The new holder's own answer (no account named) still reaches the chat.
    await answeringIn(CHAT, r.call("the new holder's answer"));
    expect(r.sent).toHaveLength(1);
  });

  it("is the writer's while the number is still the account's own (a hold)", async () => {
    const r = router(CHAT);
    await answeringIn(CHAT, () => withAccount(CHAT, r.call("the owner's own receipt")));
    expect(r.sent).toHaveLength(1);
    expect(r.passed).toEqual([]);
  });
});
