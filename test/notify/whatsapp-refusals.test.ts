import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { mobileInput } from "../support/orders.ts";
import {
  graphClient,
  notifierOver,
  openWindows,
  useGraphStandIn,
} from "../support/whatsapp-notifier.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * A final push into a WhatsApp chat that Meta refuses with HTTP 400, the way the stand-in answers
 * every refusal (and Meta answers many): what the notifier does is told by Meta's code, not by
 * the status. The account's or Meta's own trouble (a payment issue, the account locked or in
 * maintenance, a spam or rate limit, the service unavailable) is tried again later and delivered,
 * the chat left active and nothing counted as a possible duplicate; the recipient unreachable marks
 * the chat inactive; a refusal of the message itself is dead-lettered at once (as before).
 * Before: every 400 but 130429, 131056, 131026, 131031 and 368 was dead-lettered at once.
 */
const graph = useGraphStandIn();

let phones = 0;
/**
 * The notifier over the stand-in, for a customer who just wrote (their window is open), or who
 * never wrote (`windowOpen` false: the push goes as the template).
 */
async function pushToNewCustomer(windowOpen = true) {
  const waId = `97798410${String(++phones).padStart(5, "0")}`;
  const chatId = chatIdOfWaId(waId) as number;
  const client = graphClient(graph().graphRoot);
  const chats = createMemoryWaChatStore();
  if (windowOpen) await openWindows(chats, [waId], graph().standIn);
  // The notifier's and the router's clock: a wait (a rate limit's hold) is passed over by moving it.
  let shift = 0;
  const { fetch } = testRouter({
    store: chats,
    send: (to, body, o) => client.send(to, body, o),
    now: () => Date.now() + shift,
  });
  const registry = new Registry();
  const { queue, orders, notifier } = notifierOver(fetch, {
    // A 429's wait handed to the notifier (the default policy waits out 5 s within the call).
    policy: { maxDelayMs: 1_000 },
    notifier: { registry, now: () => Date.now() + shift },
  });
  const o = await orders.place(mobileInput({ chatId, userId: chatId }));
  await orders.apply({ reference: o.reference, source: "execute", status: "success", at: 1 });
  const counted = async (name: string) =>
    (await registry.getSingleMetric(name)?.get())?.values.reduce((a, v) => a + v.value, 0) ?? 0;
  return {
    waId,
    chatId,
    queue,
    notifier,
    counted,
    later: () => {
      shift += 60_000;
    },
    pushes: () =>
      graph()
        .standIn.messagesTo(waId)
        .filter((m) => m.text.includes(o.reference)),
  };
}

describe("notifier: Meta refusing a WhatsApp push with HTTP 400", () => {
  it.each([
    ["payment issue", 131042],
    ["account locked", 131031],
    ["policy block", 368],
    ["spam rate limit", 131048],
    ["pair rate limit", 131056],
    ["throughput", 130429],
    ["service unavailable", 131016],
    ["maintenance mode", 131057],
  ])("the account's or Meta's trouble (%s, %i) is retried later and delivered", async (_, code) => {
    const p = await pushToNewCustomer();
    graph().standIn.faults.failNextSends(code, 1, p.waId);
    expect(await p.notifier.runOnce()).toEqual(["retry"]);
    expect(p.pushes()).toEqual([]);
    expect(await p.queue.isChatInactive(p.chatId)).toBe(false);
    expect(await p.queue.listDead(5)).toEqual([]);

    p.later();
    expect(await p.notifier.runOnce()).toEqual(["sent"]);
    expect(p.pushes()).toHaveLength(1);
    expect(await p.queue.backlog()).toBe(0);
    expect(await p.queue.isChatInactive(p.chatId)).toBe(false);
    expect(await p.queue.listDead(5)).toEqual([]);
    // Nothing went out with the refusal: its retry is no possible duplicate.
    expect(await p.counted("notify_push_possible_duplicates_total")).toBe(0);
    expect(await p.counted("notify_push_outcome_unknown_total")).toBe(0);
  });

  // Before: a 400, so every push outside the window was dead-lettered at once, for every chat,
  // until someone fixed the template (s21 finding 5).
  it.each([
    ["template paused", 132015],
    ["template disabled", 132016],
    ["template missing in its language", 132001],
    ["parameters not the template's", 132000],
  ])(
    "a refusal of the template (%s, %i) outside the window is retried later and delivered",
    async (_, code) => {
      const p = await pushToNewCustomer(false);
      graph().standIn.faults.failNextSends(code, 1, p.waId);
      expect(await p.notifier.runOnce()).toEqual(["retry"]);
      expect(p.pushes()).toEqual([]);
      expect(await p.queue.listDead(5)).toEqual([]);

      p.later();
      expect(await p.notifier.runOnce()).toEqual(["sent"]);
      expect(p.pushes().map((m) => m.kind)).toEqual(["template"]);
      expect(await p.queue.listDead(5)).toEqual([]);
      expect(await p.counted("notify_push_possible_duplicates_total")).toBe(0);
    },
  );

  it("the recipient unreachable (131026) marks the chat inactive and drops the push", async () => {
    const p = await pushToNewCustomer();
    graph().standIn.faults.failNextSends(131026, 1, p.waId);
    expect(await p.notifier.runOnce()).toEqual(["dropped"]);
    expect(await p.queue.isChatInactive(p.chatId)).toBe(true);
    expect(await p.queue.backlog()).toBe(0);
    expect(p.pushes()).toEqual([]);
  });

  it.each([
    ["invalid parameter", 100],
    ["unsupported message type", 131051],
  ])(
    "a refusal of the message (%s, %i) is dead-lettered at once, the chat left active",
    async (_, code) => {
      const p = await pushToNewCustomer();
      graph().standIn.faults.failNextSends(code, 1, p.waId);
      expect(await p.notifier.runOnce()).toEqual(["dead"]);
      expect(await p.queue.isChatInactive(p.chatId)).toBe(false);
      const dead = await p.queue.listDead(5);
      expect(dead).toHaveLength(1);
      expect(JSON.stringify(dead[0])).toContain(`WhatsApp error ${code}`);
      expect(p.pushes()).toEqual([]);
    },
  );
});
