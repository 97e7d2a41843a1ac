import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { WA_CHAT_BASE } from "../../src/whatsapp/chat-ids.ts";
import { createRedisWaChatStore } from "../../src/whatsapp/chat-store.ts";
import { WhatsAppApiError } from "../../src/whatsapp/errors.ts";
import { answeringIn } from "../../src/whatsapp/held.ts";
import { createRedisOwedReplies } from "../../src/whatsapp/owed-replies.ts";
import { owedReplySender } from "../../src/whatsapp/owed-reply-worker.ts";
import type { WaOutbound } from "../../src/whatsapp/types.ts";
import { testRedis } from "../support/redis.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * The answers a rate limit holds (router-owed.ts), between two instances over one real Redis:
 * owed in the order the bot gave them, sent once each and in that order once WhatsApp takes sends
 * again; while a chat owes answers its next answers queue behind them and a push waits (a 503
 * that sent nothing); a send that may have arrived is never made again.
 */
const redis = testRedis("wa-owed-replies");
afterAll(() => redis.cleanup());
const WA_ID = "9779841000962";
const CHAT = WA_CHAT_BASE + Number(WA_ID);
const quiet = createLogger({ destination: new Writable({ write: (_c, _e, cb) => cb() }) });
const spam = () =>
  new WhatsAppApiError("spam", { status: 400, code: 131048, mayHaveArrived: false });
const textOf = (b: WaOutbound) => (b as { text?: { body?: string } }).text?.body ?? "";

type Answer = { ok: boolean; error_code?: number; description?: string; result?: unknown };

let worlds = 0;
function world() {
  worlds += 1;
  const prefix = `${redis.prefix}${worlds}:`;
  let now = 1_800_000_000_000;
  const sent: string[] = [];
  let refuse: (text: string) => Error | undefined = () => undefined;
  /** The owed answers' Redis away (its reads fail). */
  const broken = { owed: false };
  const instance = () => {
    const conn = redis.connect();
    const store = createRedisWaChatStore(conn, prefix);
    const stored = createRedisOwedReplies(conn, prefix);
    const owed: typeof stored = {
      ...stored,
      has: async (chatId) => {
        if (broken.owed) throw new Error("CLUSTERDOWN The cluster is down");
        return stored.has(chatId);
      },
    };
    const { router, fetch } = testRouter({
      store,
      owed,
      now: () => now,
      send: async (_to, body) => {
        const err = refuse(textOf(body));
        if (err) throw err;
        sent.push(textOf(body));
        return { wamid: `wamid.${sent.length}` };
      },
    });
    const worker = owedReplySender({ owed, router, now: () => now, logger: quiet });
    const send = async (text: string): Promise<Answer> => {
      const res = await fetch("http://bot.test/botX/sendMessage", {
        method: "POST",
        body: JSON.stringify({ chat_id: CHAT, text }),
      });
      return (await res.json()) as Answer;
    };
    /** The bot's answer to a message of the chat (held.ts `answeringIn`). */
    const answer = (text: string) => answeringIn(CHAT, () => send(text));
    return { store, worker, push: send, answer };
  };
  return {
    instance,
    sent,
    broken,
    refuseWith: (f: typeof refuse) => (refuse = f),
    advance: (ms: number) => (now += ms),
    now: () => now,
  };
}

describe("WhatsApp: answers a rate limit holds are owed, sent in order, once", () => {
  it("owed behind the hold, a push waits, two instances send each once in order", async () => {
    const w = world();
    const a = w.instance();
    const b = w.instance();
    await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.1" }, "none");
    w.refuseWith(() => spam());
    const first = await a.answer("How much?");
    // Answered as sent: the flow goes on; its message is the chat's, its wamid to come.
    expect(first).toMatchObject({ ok: true, result: { message_id: expect.any(Number) } });
    expect(await a.answer("(a second line)")).toMatchObject({ ok: true });
    expect(w.sent).toEqual([]);

    // The hold ends; the other instance (no hold of its own) knows the chat owes answers.
    w.refuseWith(() => undefined);
    w.advance(61_000);
    const push = await b.push("✅ Order 7 succeeded.");
    expect(push).toMatchObject({ ok: false, error_code: 503 });
    expect(push.description).toMatch(/^Not sent: /);
    expect(await b.answer("Please check your order")).toMatchObject({ ok: true });
    expect(w.sent).toEqual([]);

    const taken = await Promise.all([a.worker.runOnce(), b.worker.runOnce()]);
    expect(taken.reduce((x, y) => x + y, 0)).toBe(1);
    expect(w.sent).toEqual(["How much?", "(a second line)", "Please check your order"]);
    // The owed answer is its message: a tap on it finds it.
    const messageId = (first.result as { message_id: number }).message_id;
    expect(await a.store.messageOf(CHAT, "wamid.1")).toBe(messageId);

    // Nothing owed any more: the push goes, the workers find nothing.
    expect(await b.push("✅ Order 7 succeeded.")).toMatchObject({ ok: true });
    w.advance(3_600_000);
    expect(await a.worker.runOnce()).toBe(0);
    expect(await b.worker.runOnce()).toBe(0);
    expect(w.sent).toHaveLength(4);
  });

  it("a try that may have arrived is not made again; a try the hold refuses waits its end", async () => {
    const w = world();
    const a = w.instance();
    await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.2" }, "none");
    w.refuseWith(() => spam());
    await a.answer("one");
    await a.answer("two");
    // The worker's try meets the hold still standing: nothing sent, tried again after it.
    w.advance(2_000);
    expect(await a.worker.runOnce()).toBe(1);
    w.refuseWith(() => undefined);
    expect(await a.worker.runOnce()).toBe(0);
    expect(w.sent).toEqual([]);

    // After the hold: "one" is lost on the way (it may be on the phone), "two" goes.
    w.advance(60_000);
    const lost = new WhatsAppApiError("timeout", { status: 0, mayHaveArrived: true });
    w.refuseWith((text) => (text === "one" ? lost : undefined));
    expect(await a.worker.runOnce()).toBe(1);
    expect(w.sent).toEqual(["two"]);
    w.refuseWith(() => undefined);
    w.advance(3_600_000);
    expect(await a.worker.runOnce()).toBe(0);
    expect(w.sent).toEqual(["two"]);
  });

  it("the owed answers not read: a push is a 503 that sent nothing, never a lost answer", async () => {
    const w = world();
    const a = w.instance();
    await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.3" }, "none");
    w.broken.owed = true;
    const push = await a.push("✅ Order 8 succeeded.");
    expect(push).toMatchObject({ ok: false, error_code: 503 });
    expect(push.description).toMatch(/^Not sent: /);
    expect(w.sent).toEqual([]);
    w.broken.owed = false;
    expect(await a.push("✅ Order 8 succeeded.")).toMatchObject({ ok: true });
    expect(w.sent).toEqual(["✅ Order 8 succeeded."]);
  });
});
