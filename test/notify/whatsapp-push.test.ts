import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { WhatsAppApiError } from "../../src/whatsapp/errors.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { mobileInput, waitUntil } from "../support/orders.ts";
import { notifierOver } from "../support/whatsapp-notifier.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * The notifier's final push into a WhatsApp chat, through the bot's Api and the WhatsApp router
 * as in production. Meta refusing the business (an account locked, a permission revoked) says
 * nothing about the chat: the push is tried again and the chat stays active. Only the recipient
 * being unreachable marks the chat inactive, as Telegram's "bot was blocked" does.
 */
const CHAT = chatIdOfWaId("9779841000777") as number;

const refusal = (status: number, code: number) =>
  new WhatsAppApiError(`WhatsApp API ${status} code ${code}`, {
    status,
    code,
    mayHaveArrived: false,
  });

/** The notifier over a WhatsApp whose sends fail with `failures` first, then succeed. */
async function whatsappNotifier(failures: unknown[], registry?: Registry) {
  const sent: string[] = [];
  const { fetch } = testRouter({
    store: createMemoryWaChatStore(),
    send: async (to) => {
      const f = failures.shift();
      if (f !== undefined) throw f;
      sent.push(to);
      return { wamid: `wamid.${sent.length}` };
    },
  });
  const { queue, orders, notifier } = notifierOver(fetch, {
    notifier: registry ? { registry } : {},
  });
  const o = await orders.place(mobileInput({ chatId: CHAT, userId: CHAT }));
  await orders.apply({ reference: o.reference, source: "execute", status: "success", at: 1 });
  return { queue, notifier, sent };
}

describe("notifier: a push into a WhatsApp chat", () => {
  it.each([
    ["account locked", 403, 131031],
    ["permission revoked", 403, 200],
    ["policy block", 403, 368],
  ])(
    "Meta refusing the business (%s) is retried; the chat stays active",
    async (_, status, code) => {
      const { queue, notifier, sent } = await whatsappNotifier([refusal(status, code)]);
      expect(await notifier.runOnce()).toEqual(["retry"]);
      expect(await queue.isChatInactive(CHAT)).toBe(false);
      expect(await queue.backlog()).toBe(1);
      await waitUntil(async () => {
        await notifier.runOnce();
        return (await queue.backlog()) === 0;
      }, "push delivered");
      expect(sent).toEqual(["9779841000777"]);
      expect(await queue.isChatInactive(CHAT)).toBe(false);
      expect(await queue.listDead(5)).toEqual([]);
    },
  );

  it("a refusal that sent nothing is not counted as a possible duplicate when tried again", async () => {
    // Before: the router's 503 read as "may have arrived", so each retry logged a lost answer and
    // counted a possible duplicate (s20-r5, finding 2): 2 here, for 1 message sent.
    const registry = new Registry();
    const { queue, notifier, sent } = await whatsappNotifier(
      [refusal(403, 131031), refusal(403, 131031)],
      registry,
    );
    for (let i = 0; i < 3; i++) await notifier.runOnce();
    expect(sent).toEqual(["9779841000777"]);
    expect(await queue.backlog()).toBe(0);
    const counted = async (name: string) =>
      (await registry.getSingleMetric(name)?.get())?.values.reduce((a, v) => a + v.value, 0);
    expect(await counted("notify_push_possible_duplicates_total")).toBe(0);
    expect(await counted("notify_push_outcome_unknown_total")).toBe(0);
  });

  it("the recipient unreachable (131026) marks the chat inactive and drops the push", async () => {
    const { queue, notifier, sent } = await whatsappNotifier([refusal(400, 131026)]);
    expect(await notifier.runOnce()).toEqual(["dropped"]);
    expect(await queue.isChatInactive(CHAT)).toBe(true);
    expect(await queue.backlog()).toBe(0);
    expect(sent).toEqual([]);
  });
});
