import { describe, expect, it } from "vitest";
import { isUneditable } from "../../src/notify/api-errors.ts";
import { withAccount } from "../../src/telegram/call-account.ts";
import {
  isRouterRefusal,
  NOT_DELIVERED_PREFIX,
  NOT_EDITED_PREFIX,
  REFUSALS,
} from "../../src/whatsapp/chat-calls.ts";
import { chatIdOfWaId, WA_CHAT_BASE, WA_FRESH_BASE } from "../../src/whatsapp/chat-ids.ts";
import { answeringIn } from "../../src/whatsapp/held.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * A message addressed to a WhatsApp chat that names another account than the chat's own
 * (chat-calls.ts `named`): whose it is decides whatever the chat's own account's holds say
 * (review s25-a, B1). It goes to the chat only while the chat acts as that account (its number
 * and its link both name it); else to the account's own chat: a Telegram account's Telegram
 * chat, a WhatsApp-born account's WhatsApp chat (S1). An edit or a document that chat cannot take
 * is refused as not delivered, never answered as sent; an edit as one that "can't be edited", so
 * the notifier hands an outcome it carried back to be pushed anew (review s25-f, N3). A fresh account's goes as one addressed to
 * it: its chat, its own hold (N2).
 */

const CHAT = WA_CHAT_BASE + 9779841000961;
const OTHER_CHAT = WA_CHAT_BASE + 9779841000962;
const TG = 51_101;
const FRESH = WA_FRESH_BASE + 11;

interface Rig {
  /** The chat ids the WhatsApp client sent to. */
  sent: number[];
  /** The Telegram calls' bodies handed on. */
  passed: Array<Record<string, unknown>>;
  call: (method: string, body: Record<string, unknown>) => Promise<Answer>;
}
interface Answer {
  ok: boolean;
  error_code?: number;
  description?: string;
}

function rig(opts: {
  now: { holder: number | null; link: number | null };
  held?: number[];
  freshChat?: number | null;
}): Rig {
  const store = createMemoryWaChatStore();
  const sent: number[] = [];
  const passed: Array<Record<string, unknown>> = [];
  const held = new Set(opts.held ?? []);
  const { fetch } = testRouter({
    store,
    send: async (to) => {
      sent.push(chatIdOfWaId(to) ?? 0);
      return { wamid: `wamid.${sent.length}` };
    },
    telegram: async (_input, init) => {
      passed.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return new Response(JSON.stringify({ ok: true, result: { message_id: 1 } }));
    },
    heldChat: async (account) => held.has(account),
    chatOfAccount: async (account) => (account === FRESH ? (opts.freshChat ?? null) : null),
    reachOf: async (account) => (held.has(account) ? "held" : null),
    chatNowOf: async () => opts.now,
  });
  const call = (method: string, body: Record<string, unknown>) =>
    fetch(`http://bot.test/botX/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chat_id: CHAT, ...body }),
    }).then((r) => r.json() as Promise<Answer>);
  return { sent, passed, call };
}

const notActing = `${NOT_DELIVERED_PREFIX}${REFUSALS.notActing}`;
const editNotActing = `${NOT_EDITED_PREFIX}${REFUSALS.notActing}`;

/** A refused edit as the notifier reads it: uneditable (its outcome pushed anew), and final. */
function expectUneditable(a: Answer) {
  expect(a).toMatchObject({ ok: false, error_code: 400, description: editNotActing });
  const failure = { code: a.error_code, description: a.description ?? "", retryAfterMs: undefined };
  expect(isUneditable(failure)).toBe(true);
  expect(isRouterRefusal(failure.description)).toBe(true);
}

describe("a chat whose own account is not held, linked to a Telegram account", () => {
  it("the Telegram account's message goes to the chat while the chat acts as it", async () => {
    const r = rig({ now: { holder: TG, link: TG } });
    const a = await withAccount(TG, () => r.call("sendMessage", { text: "Order 1 succeeded" }));
    expect(a.ok).toBe(true);
    expect(r.sent).toHaveLength(1);
    expect(r.passed).toEqual([]);
  });

  it("once the link was dropped, it goes to the account's Telegram chat, not the chat", async () => {
    const r = rig({ now: { holder: TG, link: null } });
    const a = await withAccount(TG, () =>
      r.call("sendMessage", { text: "Order 1 succeeded, balance after Rs 200" }),
    );
    expect(a.ok).toBe(true);
    expect(r.sent).toEqual([]);
    expect(r.passed).toEqual([{ chat_id: TG, text: "Order 1 succeeded, balance after Rs 200" }]);
  });

  it("also while the number was registered to another account since", async () => {
    const r = rig({ now: { holder: TG + 1, link: TG } });
    await withAccount(TG, () => r.call("sendMessage", { text: "Your top-up was added" }));
    expect(r.sent).toEqual([]);
    expect(r.passed).toMatchObject([{ chat_id: TG }]);
  });

  it("also in an answer to the chat (whoever writes there now is not the account)", async () => {
    const r = rig({ now: { holder: TG, link: null } });
    await answeringIn(CHAT, () =>
      withAccount(TG, () => r.call("sendMessage", { text: "a notice to the account" })),
    );
    expect(r.sent).toEqual([]);
    expect(r.passed).toMatchObject([{ chat_id: TG }]);
  });

  it("an edit or a document the Telegram chat cannot take is not delivered, never sent", async () => {
    const r = rig({ now: { holder: TG, link: null } });
    const edit = await withAccount(TG, () =>
      r.call("editMessageText", { message_id: 3, text: "Order 1: pending" }),
    );
    const doc = await withAccount(TG, () =>
      r.call("sendDocument", { document: "file-1", caption: "Receipt" }),
    );
    expectUneditable(edit);
    expect(doc).toMatchObject({ ok: false, error_code: 400, description: notActing });
    expect(r.sent).toEqual([]);
    expect(r.passed).toEqual([]);
  });

  it("the chat's own and unnamed messages are carried as before", async () => {
    const r = rig({ now: { holder: TG, link: null } });
    await withAccount(CHAT, () => r.call("sendMessage", { text: "the chat's own" }));
    await r.call("sendMessage", { text: "unnamed" });
    expect(r.sent).toEqual([CHAT, CHAT]);
    expect(r.passed).toEqual([]);
  });
});

describe("another WhatsApp-born account's message to the chat", () => {
  it("goes to that account's own WhatsApp chat", async () => {
    const r = rig({ now: { holder: null, link: null } });
    await withAccount(OTHER_CHAT, () => r.call("sendMessage", { text: "its order's result" }));
    expect(r.sent).toEqual([OTHER_CHAT]);
    expect(r.passed).toEqual([]);
  });

  it("is kept back while that account is held", async () => {
    const r = rig({ now: { holder: null, link: null }, held: [OTHER_CHAT] });
    const a = await withAccount(OTHER_CHAT, () => r.call("sendMessage", { text: "withheld" }));
    expect(a.ok).toBe(true);
    expect(r.sent).toEqual([]);
    expect(r.passed).toEqual([]);
  });
});

describe("a fresh account's message addressed to the chat of its number", () => {
  // Review s25-a N2: holder and link named the fresh account, so its message went to the chat
  // during the fresh account's own hold.
  it("is kept back during the fresh account's own hold", async () => {
    const r = rig({ now: { holder: FRESH, link: FRESH }, held: [CHAT, FRESH], freshChat: CHAT });
    const a = await withAccount(FRESH, () =>
      r.call("sendMessage", { text: "fresh account's result, balance 300" }),
    );
    expect(a.ok).toBe(true);
    expect(r.sent).toEqual([]);
    expect(r.passed).toEqual([]);
  });

  it("goes to the chat while the account is not held", async () => {
    const r = rig({ now: { holder: FRESH, link: null }, freshChat: CHAT });
    const a = await withAccount(FRESH, () => r.call("sendMessage", { text: "its result" }));
    expect(a.ok).toBe(true);
    expect(r.sent).toEqual([CHAT]);
  });

  it("an edit of this chat's message is refused once the account's chat is another", async () => {
    const r = rig({ now: { holder: null, link: null }, freshChat: OTHER_CHAT });
    const a = await withAccount(FRESH, () =>
      r.call("editMessageText", { message_id: 3, text: "pending" }),
    );
    expectUneditable(a);
    expect(r.sent).toEqual([]);
  });
});
