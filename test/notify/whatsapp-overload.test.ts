import { Hono } from "hono";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { serveFetch } from "../support/http.ts";
import { mobileInput } from "../support/orders.ts";
import { graphClient, notifierOver, openWindows } from "../support/whatsapp-notifier.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * Meta overloaded: every send is taken (the customer gets it) but answered 503 with code 2
 * ("temporary downtime or overload"), the answer of a front end giving up on a back end that took
 * the message. Meta's docs say to wait and try again, never that nothing went out, so such a push
 * may have arrived: sent again with back-off, each resend counted as a possible duplicate, at most
 * 8 sends. Before (s21 finding 4): read as sending nothing, re-sent at every reclaim (30 s) for
 * the whole NOTIFY_RETRY_FOR_MS (6 h), about 120 copies an hour, none counted. A 4xx with the same
 * code still sends nothing (test/whatsapp/client.test.ts).
 */
const WA_ID = "9779841000555";

/** The messages Meta took, whatever it answered. */
const taken: string[] = [];
let graph: Awaited<ReturnType<typeof serveFetch>>;
beforeAll(async () => {
  const app = new Hono();
  app.post("/v24.0/:phone/messages", async (c) => {
    const body = (await c.req.json()) as { text?: { body?: string } };
    taken.push(body.text?.body ?? "");
    return c.json(
      { error: { message: "Service temporarily unavailable", type: "OAuthException", code: 2 } },
      503,
    );
  });
  graph = await serveFetch(app.fetch);
});
afterAll(async () => {
  await graph.close();
});

describe("notifier: Meta answering 503 code 2 to sends it took", () => {
  it("sends a push at most 8 times, spread out, each resend counted as a possible duplicate", async () => {
    const client = graphClient(graph.url, 3);
    const chats = createMemoryWaChatStore();
    const chatId = chatIdOfWaId(WA_ID) as number;
    await openWindows(chats, [WA_ID]);
    let shift = 0;
    const now = () => Date.now() + shift;
    const { fetch } = testRouter({ store: chats, send: (to, b, o) => client.send(to, b, o), now });
    const registry = new Registry();
    const { orders, notifier } = notifierOver(fetch, { notifier: { registry, now } });
    const o = await orders.place(mobileInput({ chatId, userId: chatId }));
    await orders.apply({ reference: o.reference, source: "execute", status: "success", at: 1 });

    // Ten minutes of reclaims, 30 s apart.
    for (let round = 0; round < 20; round++) {
      await notifier.runOnce();
      shift += 30_000;
    }
    const copies = taken.filter((t) => t.includes(o.reference));
    // Before: 20 copies, 0 counted.
    expect(copies.length).toBeGreaterThanOrEqual(2);
    expect(copies.length).toBeLessThanOrEqual(8);
    const counted = async (name: string) =>
      (await registry.getSingleMetric(name)?.get())?.values.reduce((a, v) => a + v.value, 0) ?? 0;
    expect(await counted("notify_push_possible_duplicates_total")).toBe(copies.length - 1);
  });
});
