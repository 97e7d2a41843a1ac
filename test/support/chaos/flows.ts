import { randomUUID } from "node:crypto";
import type { BotApiEmulator, TranscriptEntry } from "../../../dev/playground/emulator/index.ts";
import type { Order } from "../../../src/orders/model.ts";
import { type ChatUser, FINAL_PUSH, finalPushes } from "../chat.ts";
import type { SystemView as System } from "../system-view.ts";
import { sleep, waitUntil } from "./env.ts";

const RECEIPT = /^🧾 Order (\d+)/;

/**
 * A mobile top-up as a patient person does it while the bot may be dying and coming back: look at
 * the last thing the bot said, do what it asks, and if nothing comes back for a while, look again
 * and do it again (a tap whose button is gone becomes a typed word, which makes the bot show the
 * question again). Pushes and receipts of earlier orders are not questions and are skipped.
 * Resolves with the reference of the new order's receipt.
 */
export async function patientMobileOrder(
  u: ChatUser,
  number: string,
  amount: string,
  known: Set<string>,
  opts: { deadlineMs?: number; quietMs?: number; thinkMs?: () => number } = {},
): Promise<{ reference: string; actions: number; retries: number }> {
  const deadline = Date.now() + (opts.deadlineMs ?? 120_000);
  const quietMs = opts.quietMs ?? 8_000;
  const isNoise = (m: TranscriptEntry) => {
    if (FINAL_PUSH.test(m.text)) return true;
    const r = RECEIPT.exec(m.text);
    return r !== null && known.has(r[1] ?? "");
  };
  let actions = 0;
  let retries = 0;
  let lastAction = "";
  for (;;) {
    if (Date.now() > deadline) {
      const tail = u
        .chat()
        .slice(-6)
        .map((m) => `${m.from}: ${m.text.slice(0, 80)}`)
        .join("\n");
      const answers = u.emu
        .callbackAnswers()
        .filter((a) => a.chat_id === u.id)
        .slice(-4)
        .map((a) => `${a.data} -> ${a.text ?? "(silent)"}`)
        .join("; ");
      throw new Error(
        `user ${u.id} could not finish an order in time; chat ends:\n${tail}\nlast callback answers: ${answers}`,
      );
    }
    const last = u
      .botMessages()
      .filter((m) => !isNoise(m))
      .at(-1);
    const text = last?.text ?? "";
    const receipt = RECEIPT.exec(text);
    if (receipt?.[1] && !known.has(receipt[1])) {
      known.add(receipt[1]);
      return { reference: receipt[1], actions, retries };
    }
    if (opts.thinkMs) await sleep(opts.thinkMs());
    const before = u.lastId();
    let action: string;
    try {
      if (/Please check your order/.test(text) && last) {
        if (u.hasButton("✅ Confirm", last)) {
          action = "confirm";
          u.emu.clickButton(u.id, "✅ Confirm", { messageId: last.id });
        } else {
          action = "ask again";
          u.emu.sendText(u.id, "ok");
        }
      } else if (/How much\?/.test(text)) {
        action = "amount";
        u.emu.sendText(u.id, amount);
      } else if (/Operator for/.test(text) && last && u.hasButton(/detected/, last)) {
        action = "operator";
        const label = (last.inlineKeyboard ?? []).flat().find((b) => /detected/.test(b.text));
        u.emu.clickButton(u.id, label?.text ?? "", { messageId: last.id });
      } else if (/Which mobile number/.test(text)) {
        action = "number";
        u.emu.sendText(u.id, number);
      } else if (/Leave this order\?/.test(text) && last && u.hasButton("🚪 Leave", last)) {
        // A /recharge sent into a flow it could not follow (after a kill): leave it, start over.
        action = "leave";
        u.emu.clickButton(u.id, "🚪 Leave", { messageId: last.id });
      } else if (
        /What would you like to pay/.test(text) &&
        last &&
        u.hasButton("📱 Mobile top-up", last)
      ) {
        action = "menu";
        u.emu.clickButton(u.id, "📱 Mobile top-up", { messageId: last.id });
      } else {
        action = "start";
        u.emu.sendText(u.id, "/recharge");
      }
    } catch {
      // The button vanished between looking and tapping: look again.
      await sleep(200);
      continue;
    }
    actions++;
    if (action === lastAction) retries++;
    lastAction = action;
    try {
      await u.emu.waitForBotMessage(u.id, (m) => !isNoise(m), {
        afterId: before,
        timeoutMs: quietMs,
      });
    } catch {
      // Nothing came back (the bot was down, or the update died with it): look again.
    }
  }
}

export interface OrderStream {
  /** Order `i` of the stream: a Rs 200 NTC top-up by user firstUser + i % users. */
  input(i: number, key: string): Parameters<System["orders"]["place"]>[0];
  /**
   * As a careful API client does while Redis is away: the same idempotency key until the store
   * answers (`attempts` tries each for place and submit, 100 ms apart).
   */
  placeAndSubmit(i: number, failures: { place: number; submit: number }): Promise<Order>;
}

/** API callers ordering through `app().orders` (read when called: the app starts in beforeAll). */
export function orderStream(o: {
  app: () => System;
  /** Starts each idempotency key. */
  name: string;
  firstUser: number;
  users: number;
  attempts: number;
}): OrderStream {
  const input = (i: number, key: string) => {
    const user = o.firstUser + (i % o.users);
    return {
      idempotencyKey: key,
      userId: user,
      chatId: user,
      locale: "en",
      category: "mobile" as const,
      region: "np" as const,
      operatorId: 5,
      operatorTypeId: 1,
      operatorName: "NTC Prepaid",
      connectionNo: `984${String(i % 1000).padStart(3, "0")}${i % 7 === 0 ? "0000" : "4321"}`,
      amountPaisa: 20_000,
      details: {},
    };
  };
  async function placeAndSubmit(i: number, failures: { place: number; submit: number }) {
    const { orders } = o.app();
    const key = `${o.name}-${i}-${randomUUID()}`;
    let order: Order | undefined;
    for (let attempt = 0; !order; attempt++) {
      try {
        order = await orders.place(input(i, key));
      } catch (err) {
        failures.place++;
        if (attempt > o.attempts) throw err;
        await sleep(100);
      }
    }
    for (let attempt = 0; ; attempt++) {
      try {
        return await orders.submit(order.reference);
      } catch (err) {
        failures.submit++;
        // The outcome may have been lost with the reply: the stored order says where it stands.
        const stored = await orders.get(order.reference).catch(() => null);
        if (stored && stored.status !== "placed") return stored;
        if (attempt > o.attempts) throw err;
        await sleep(100);
      }
    }
  }
  return { input, placeAndSubmit };
}

/** Waits (up to a minute) until the app's store holds no open order. */
export async function everyOrderFinal(app: System): Promise<void> {
  await waitUntil(
    async () =>
      (await app.store.listOpen({ createdBefore: Date.now() + 60_000, limit: 5 })).length === 0,
    "every order final",
    { timeoutMs: 60_000, intervalMs: 200 },
  );
}

/** Waits (up to a minute) until the outbox is drained and `chats` got `count` final pushes. */
export async function everyPushDelivered(
  app: System,
  emulator: BotApiEmulator,
  chats: number[],
  count: number,
): Promise<void> {
  await waitUntil(
    async () => (await app.queue.backlog()) === 0 && finalPushes(emulator, chats).size >= count,
    "every final push delivered",
    { timeoutMs: 60_000, intervalMs: 200 },
  );
}
