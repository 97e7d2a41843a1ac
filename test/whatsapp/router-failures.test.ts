import { GrammyError } from "grammy";
import { describe, expect, it } from "vitest";
import { mayHaveArrived } from "../../src/telegram/api.ts";
import { freshWaAccount, WA_CHAT_BASE } from "../../src/whatsapp/chat-ids.ts";
import { sentNothing, WhatsAppApiError } from "../../src/whatsapp/errors.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * A failed WhatsApp send as the Bot API would answer it, so the notifier treats it as it treats
 * Telegram's: Meta's rate limits, a connection never made, Meta refusing the business or the
 * template a 503 that sent nothing (all tried again, never dead-lettered), the recipient
 * unreachable a 403 (the chat is gone), Meta refusing the message a 400, and a send that may have
 * gone out (or a store error after it) thrown as a lost answer.
 */
const WA_ID = "9779841000902";
const CHAT = WA_CHAT_BASE + Number(WA_ID);

function routerFailingWith(err: unknown) {
  const store = createMemoryWaChatStore();
  const { fetch } = testRouter({
    store,
    send: async () => {
      throw err;
    },
  });
  return async () => {
    await store.arrive(CHAT, { at: Date.now(), wamid: "wamid.in" }, "none");
    const res = await fetch("http://bot.test/botX/sendMessage", {
      method: "POST",
      body: JSON.stringify({ chat_id: CHAT, text: "✅ Order 1 succeeded." }),
    });
    return (await res.json()) as { ok: boolean; error_code?: number; parameters?: unknown };
  };
}

const meta = (status: number, code: number | undefined, mayHaveArrived = false) =>
  new WhatsAppApiError("refused", {
    status,
    ...(code === undefined ? {} : { code }),
    mayHaveArrived,
  } as ConstructorParameters<typeof WhatsAppApiError>[1]);

describe("router: a failed send as the Bot API would answer it", () => {
  // A 429 pauses the whole notifier, Telegram's pushes included; a spam limit may stand for hours.
  // Before: a 429 with a wait (s21 finding 1). The router holds WhatsApp's sends instead.
  it.each([130429, 131056, 131048, 4, 80007])(
    "Meta's rate limit %i is a 503 that says nothing was sent, with no wait for the notifier",
    async (code) => {
      const answer = (await routerFailingWith(meta(400, code))()) as {
        error_code?: number;
        description?: string;
        parameters?: unknown;
      };
      expect(answer).toMatchObject({ ok: false, error_code: 503 });
      expect(answer.description).toMatch(/^Not sent: /);
      expect(answer.parameters).toBeUndefined();
    },
  );

  it("a connection never made is a 503", async () => {
    expect(await routerFailingWith(meta(0, undefined))()).toMatchObject({ error_code: 503 });
  });

  // Telegram's 5xx may come after the message was shown; the router's 503s come only when
  // nothing went out, and say so: the notifier neither counts a possible duplicate for them nor
  // spends the resends of a push that may have arrived.
  it.each([
    [0, undefined],
    [503, 2],
    [403, 131031],
  ])("its 503 (HTTP %i, code %s) says nothing was sent", async (status, code) => {
    const answer = (await routerFailingWith(meta(status, code))()) as {
      ok: false;
      error_code: number;
      description: string;
    };
    expect(answer.error_code).toBe(503);
    expect(mayHaveArrived(new GrammyError("failed", answer, "sendMessage", {}))).toBe(false);
    const telegrams = { ok: false as const, error_code: 502, description: "Bad Gateway" };
    expect(mayHaveArrived(new GrammyError("failed", telegrams, "sendMessage", {}))).toBe(true);
  });

  it("Meta refusing the message is a 400", async () => {
    expect(await routerFailingWith(meta(400, 100))()).toMatchObject({ error_code: 400 });
  });

  // A 403 would tell the notifier "this chat blocked the bot": the chat marked inactive and its
  // push dropped. Meta refusing the business (account locked, permission revoked, policy block,
  // country restriction, token) says nothing about the chat: tried again, like a 5xx.
  it.each([
    [403, 131031],
    [403, 10],
    [403, 200],
    [403, 299],
    [403, 368],
    [403, 130497],
    [403, undefined],
    [401, 190],
    [400, 368],
    [400, 131031],
    [400, 131042],
    [400, 10],
    [400, 200],
  ])("Meta refusing the business (HTTP %i, code %s) is a 503, not a 403", async (status, code) => {
    expect(await routerFailingWith(meta(status, code))()).toMatchObject({ error_code: 503 });
  });

  // Told by Meta's code, not the HTTP status: Meta answers these with 400 too (before: a 400,
  // the push dead-lettered at once).
  it.each([
    [400, 131016],
    [400, 131057],
    [400, 131000],
    [400, 2],
    [503, 131016],
  ])(
    "Meta unavailable (HTTP %i, code %i) is a 503 that says nothing was sent",
    async (status, code) => {
      const answer = (await routerFailingWith(meta(status, code))()) as { description?: string };
      expect(answer).toMatchObject({ error_code: 503 });
      expect(answer.description).toMatch(/^Not sent: /);
    },
  );

  // The marketing cap per person (131049): Meta says to try again later. Before (review s24-c
  // item 2): a refusal of the message, a 400, the push dead-lettered at once; and at a 5xx a
  // possible duplicate, though Meta took nothing.
  it("the marketing cap 131049 is a 503 that says nothing was sent", async () => {
    const answer = (await routerFailingWith(meta(400, 131049))()) as { description?: string };
    expect(answer).toMatchObject({ error_code: 503 });
    expect(answer.description).toMatch(/^Not sent: /);
    expect(sentNothing(131049)).toBe(true);
  });

  it.each([131051, 131009, 132005])(
    "Meta refusing the message (code %i) stays a 400",
    async (code) => {
      expect(await routerFailingWith(meta(400, code))()).toMatchObject({ error_code: 400 });
    },
  );

  // The template refused for every push outside the window (before: a 400, each push
  // dead-lettered at once, s21 finding 5): tried again until someone fixes it.
  it.each([132000, 132001, 132012, 132015, 132016])(
    "Meta refusing the template (code %i) is a 503 that says nothing was sent",
    async (code) => {
      const answer = (await routerFailingWith(meta(400, code))()) as { description?: string };
      expect(answer).toMatchObject({ error_code: 503 });
      expect(answer.description).toMatch(/^Not sent: /);
    },
  );

  it("the recipient unreachable (131026) stays a 403 when Meta answers it with 403", async () => {
    expect(await routerFailingWith(meta(403, 131026))()).toMatchObject({ error_code: 403 });
  });

  it("Meta's recipient undeliverable (131026) is a 403: the chat is gone", async () => {
    const answer = await routerFailingWith(meta(400, 131026))();
    expect(answer).toMatchObject({
      error_code: 403,
      description: expect.stringMatching(/^Forbidden/),
    });
  });

  it("a send that may have arrived, or an error that is not Meta's, is thrown", async () => {
    await expect(routerFailingWith(meta(0, undefined, true))()).rejects.toThrow(/WhatsApp/);
    await expect(routerFailingWith(new Error("redis down"))()).rejects.toThrow(/redis down/);
  });

  // Review s24-f items 7 and 10: before, a 503 "Not sent", so a reminder gave its marks back and
  // its lead went again hours later, and a late resend sent the lead again at once.
  it("a long message whose lead went out and whose second part is refused may have arrived", async () => {
    const store = createMemoryWaChatStore();
    const bodies: unknown[] = [];
    const { fetch } = testRouter({
      store,
      send: async (_to, body) => {
        if (bodies.length > 0) throw meta(400, 131056);
        bodies.push(body);
        return { wamid: "wamid.lead" };
      },
    });
    await store.arrive(CHAT, { at: Date.now(), wamid: "wamid.in" }, "none");
    const text = `${"Reminder line for a due number. ".repeat(40)}\nPay again?`;
    const reply_markup = { inline_keyboard: [[{ text: "Pay", callback_data: "pay:1" }]] };
    const res = fetch("http://bot.test/botX/sendMessage", {
      method: "POST",
      body: JSON.stringify({ chat_id: CHAT, text, reply_markup }),
    });
    await expect(res).rejects.toThrow(/WhatsApp/);
    expect(bodies).toHaveLength(1);
  });
});

/**
 * A store read before the send failing (the per-push hold check, the fresh account's chat: a
 * Redis or script error) sent nothing: a 503 that says so, never a lost answer ("may have
 * arrived": a possible duplicate counted, a resend used up). Review s23-c, note 7.
 */
describe("router: a store read before the send fails", () => {
  const post = (fetch: typeof globalThis.fetch, chatId: number) =>
    fetch("http://bot.test/botX/sendMessage", {
      method: "POST",
      body: JSON.stringify({ chat_id: chatId, text: "✅ Order 1 succeeded." }),
    }).then((r) => r.json() as Promise<{ ok: boolean; error_code?: number; description?: string }>);

  it("the per-push hold check failing is a 503 that sent nothing", async () => {
    const store = createMemoryWaChatStore();
    let sends = 0;
    const { fetch } = testRouter({
      store,
      send: async () => {
        sends += 1;
        return { wamid: "wamid.out" };
      },
      heldChat: async () => {
        throw new Error("NOSCRIPT");
      },
    });
    const answer = await post(fetch, CHAT);
    expect(answer).toMatchObject({ ok: false, error_code: 503 });
    expect(answer.description).toMatch(/^Not sent: /);
    expect(sends).toBe(0);
  });

  it("a fresh account's chat read failing is a 503 that sent nothing", async () => {
    const store = createMemoryWaChatStore();
    const { fetch } = testRouter({
      store,
      send: async () => ({ wamid: "wamid.out" }),
      chatOfAccount: async () => {
        throw new Error("connection lost");
      },
    });
    const answer = await post(fetch, freshWaAccount(7));
    expect(answer).toMatchObject({ ok: false, error_code: 503 });
    expect(answer.description).toMatch(/^Not sent: /);
  });
});
