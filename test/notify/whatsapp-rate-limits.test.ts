import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { type FakeBotApi, startFakeBotApi } from "../support/fake-bot-api.ts";
import { attachReceipt, mobileInput, waitUntil } from "../support/orders.ts";
import {
  graphClient,
  notifierOver,
  openWindows,
  useGraphStandIn,
} from "../support/whatsapp-notifier.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * Meta's rate refusals (131048 spam limit, 4 and 80007 call limits, 130429 throughput, 131056 pair
 * rate) hold WhatsApp's sends only: the notifier serving both channels keeps pushing into Telegram
 * chats. Before (s21 finding 1), they were a Telegram-style 429, which paused the notifier's
 * reading, Telegram's pushes included, at every retry of every WhatsApp push for as long as the
 * limit stood (hours, for 131048). The hold: a send to the number after 131048 waits without a
 * call to Meta until it ends; 131056 holds only that customer.
 */
/** grammY's own fetch, as production hands Telegram's calls on (src/system/whatsapp.ts). */
const grammyFetch = createRequire(import.meta.url)("node-fetch") as typeof fetch;

const graph = useGraphStandIn();
let telegram: FakeBotApi;
beforeAll(async () => {
  telegram = await startFakeBotApi();
});
afterAll(async () => {
  await telegram.close();
});

let phones = 0;
/** WhatsApp customers who just wrote (their window open), and the router over the stand-in. */
async function whatsapp(customers: number) {
  const waIds = Array.from(
    { length: customers },
    () => `97798430${String(++phones).padStart(5, "0")}`,
  );
  const client = graphClient(graph().graphRoot);
  const chats = createMemoryWaChatStore();
  await openWindows(chats, waIds, graph().standIn);
  const clock = { shift: 0 };
  const calls: string[] = [];
  const { fetch } = testRouter({
    store: chats,
    send: (to, body, o) => {
      calls.push(to);
      return client.send(to, body, o);
    },
    now: () => Date.now() + clock.shift,
    telegram: grammyFetch,
  });
  return { waIds, fetch, clock, calls };
}

describe("WhatsApp's rate limits hold WhatsApp's sends, never Telegram's", () => {
  it("a WhatsApp push refused 131048 does not delay a Telegram push of the same notifier", async () => {
    const wa = await whatsapp(1);
    const [waId] = wa.waIds as [string];
    graph().standIn.faults.failNextSends(131048, 100, waId);
    const { queue, orders, notifier } = notifierOver(wa.fetch, {
      apiRoot: telegram.apiRoot,
      // A wait the Bot API asks for beyond a second is handed to the notifier (its pause).
      policy: { maxDelayMs: 1_000 },
      notifier: { consumerName: "both" },
    });
    const waChat = chatIdOfWaId(waId) as number;
    // The chat's own order: a WhatsApp chat's orders carry its account's id (update.ts `from`).
    const waOrder = await orders.place(mobileInput({ chatId: waChat, userId: waChat }));
    await orders.apply({
      reference: waOrder.reference,
      source: "execute",
      status: "success",
      at: 1,
    });
    expect(await notifier.runOnce()).toEqual(["retry"]);

    // A Telegram customer's result, read while the WhatsApp push is still refused.
    const telegramChat = 5_550_001;
    const tgOrder = await orders.place(mobileInput({ chatId: telegramChat, userId: telegramChat }));
    await orders.apply({
      reference: tgOrder.reference,
      source: "execute",
      status: "success",
      at: 1,
    });
    // Before: ["retry", "retry"]: the 429's pause turned the Telegram push back unsent.
    expect(await notifier.runOnce()).toEqual(["retry", "sent"]);
    expect(telegram.chat(telegramChat).map((m) => m.text)).toEqual([
      expect.stringContaining(tgOrder.reference),
    ]);
    expect(await queue.listDead(5)).toEqual([]);
    // The WhatsApp push waits its turn (nothing lost, nothing counted as sent).
    expect(await queue.backlog()).toBe(1);
  });

  it("after 131048 the number's sends wait without a call to Meta until the hold ends", async () => {
    const wa = await whatsapp(2);
    const [a, b] = wa.waIds as [string, string];
    graph().standIn.faults.failNextSends(131048, 1, a);
    const send = (waId: string) =>
      wa
        .fetch("http://bot.test/botX/sendMessage", {
          method: "POST",
          body: JSON.stringify({ chat_id: chatIdOfWaId(waId), text: `to ${waId}` }),
        })
        .then(
          (r) => r.json() as Promise<{ ok: boolean; error_code?: number; description?: string }>,
        );
    expect(await send(a)).toMatchObject({ ok: false, error_code: 503 });
    const held = await send(b);
    expect(held).toMatchObject({ ok: false, error_code: 503 });
    expect(held.description).toMatch(/^Not sent: WhatsApp error 131048: WhatsApp sends held/);
    expect(wa.calls).toEqual([a]);
    wa.clock.shift += 61_000;
    expect(await send(b)).toMatchObject({ ok: true });
    expect(wa.calls).toEqual([a, b]);
    expect(
      graph()
        .standIn.messagesTo(b)
        .map((m) => m.text),
    ).toEqual([`to ${b}`]);
  });

  it("after 131056 (pair rate) only that customer's sends wait", async () => {
    const wa = await whatsapp(2);
    const [a, b] = wa.waIds as [string, string];
    graph().standIn.faults.failNextSends(131056, 1, a);
    const send = (waId: string) =>
      wa
        .fetch("http://bot.test/botX/sendMessage", {
          method: "POST",
          body: JSON.stringify({ chat_id: chatIdOfWaId(waId), text: `to ${waId}` }),
        })
        .then((r) => r.json() as Promise<{ ok: boolean; error_code?: number }>);
    expect(await send(a)).toMatchObject({ ok: false, error_code: 503 });
    expect(await send(b)).toMatchObject({ ok: true });
    expect(await send(a)).toMatchObject({ ok: false, error_code: 503 });
    expect(wa.calls).toEqual([a, b]);
    wa.clock.shift += 7_000;
    expect(await send(a)).toMatchObject({ ok: true });
    expect(wa.calls).toEqual([a, b, a]);
  });

  it.each([
    ["waits out the hold and is made after it, none dead-lettered", 6 * 3_600_000],
    ["is given up (dead-lettered) once its entry is retryForMs old", 0],
  ] as const)("a receipt edit into a WhatsApp chat %s", async (_what, retryForMs) => {
    // Before (s21 link review, finding 4): each held edit's "Not sent:" 503 used up one of the
    // lane's 8 tries, and the edit was dead-lettered about 32 s into a 60 s hold. The lane's waits
    // run on the router's clock here (each wait moves it on by as long), so the hold ends by them.
    const wa = await whatsapp(1);
    const [waId] = wa.waIds as [string];
    const chatId = chatIdOfWaId(waId) as number;
    graph().standIn.faults.failNextSends(131048, 1, waId);
    const { queue, orders, notifier } = notifierOver(wa.fetch, {
      apiRoot: telegram.apiRoot,
      // One attempt per call: the lane's waits are what this is about, not the client's own.
      policy: { attempts: 1 },
      notifier: {
        consumerName: "edits",
        retryForMs,
        pacer: false,
        // The lane's own behaviour: receipt edits into this chat (the product gives WhatsApp chats
        // the final push instead, system/bot.ts), as any chat whose sends can be held.
        editsReceipts: () => true,
        sleep: async (ms) => {
          wa.clock.shift += ms;
          await new Promise((done) => setTimeout(done, 1));
        },
      },
    });
    const o = await orders.place(mobileInput({ chatId, userId: chatId }));
    await attachReceipt(orders, o.reference, 1);
    await orders.submit(o.reference);
    await waitUntil(
      async () => {
        await notifier.runOnce();
        return (await queue.backlog()) === 0;
      },
      "the receipt edit made",
      { timeoutMs: 20_000 },
    );
    if (retryForMs === 0) {
      // Bounded by time as a push is: the refusal that began the hold was the only call.
      const dead = await queue.listDead(5);
      expect(dead.map((d) => d.reason)).toEqual([expect.stringMatching(/^edit sent nothing for/)]);
      expect(wa.calls).toEqual([waId]);
      await notifier.stop();
      return;
    }
    expect(await queue.listDead(5)).toEqual([]);
    // One call refused (the hold began), then none until the hold ended, then the edit.
    expect(wa.calls).toEqual([waId, waId]);
    expect(wa.clock.shift).toBeGreaterThanOrEqual(60_000);
    const shown = graph()
      .standIn.messagesTo(waId)
      .map((m) => m.text ?? "");
    expect(shown.some((t) => t.includes(o.reference))).toBe(true);
    await notifier.stop();
  });
});
