import { Api, HttpError } from "grammy";
import { describe, expect, it } from "vitest";
import { boundedRetry, mayHaveArrived, sendOnceSignal } from "../../src/telegram/api.ts";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * The Bot API call's bound holds on WhatsApp: boundedRetry aborts a call that outlives its
 * per-attempt timeout, and the router gives up with it (its send cut), so a WhatsApp push cannot
 * outlive the notifier's send lock, sized on that bound, while another instance sends it again.
 * A call given up is "may have arrived", as a Telegram request that timed out.
 */
const CHAT = chatIdOfWaId("9779800000001") as number;
const BOUND_MS = 200;

/** A WhatsApp that takes 3 s to answer a send, cut as undici cuts it; what each send's signal saw. */
function slowWhatsApp() {
  const signals: Array<AbortSignal | undefined> = [];
  const send = async (_to: string, _body: unknown, opts?: { signal?: AbortSignal }) => {
    signals.push(opts?.signal);
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, 3_000);
      opts?.signal?.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(new Error("This operation was aborted"));
      });
    });
    return { wamid: "wamid.SLOW" };
  };
  return { send, signals };
}

function boundedApi(fetch: typeof globalThis.fetch) {
  const api = new Api("1:x", { fetch });
  api.config.use(boundedRetry({ timeoutMs: BOUND_MS, attempts: 1, maxDelayMs: 100 }));
  return api;
}

describe("router: the Bot API call's bound", () => {
  it("a push to a slow WhatsApp is given up within the bound, its send cut, as may-have-arrived", async () => {
    const wa = slowWhatsApp();
    const { fetch } = testRouter({ store: createMemoryWaChatStore(), send: wa.send });
    const api = boundedApi(fetch);
    const started = Date.now();
    const err = await api
      .sendMessage(CHAT, "Recharge successful", undefined, sendOnceSignal())
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    const took = Date.now() - started;
    expect(took).toBeLessThan(BOUND_MS + 500);
    expect(err).toBeInstanceOf(HttpError);
    // As a Telegram request that timed out: the push may be on the phone, not sent blindly again.
    expect(mayHaveArrived(err)).toBe(true);
    expect(String((err as Error).message)).toMatch(/timed out after 200 ms.*may have arrived/);
    // The send itself was handed the call's signal, aborted at the bound.
    expect(wa.signals).toHaveLength(1);
    expect(wa.signals[0]?.aborted).toBe(true);
  });

  it("a call answered within the bound is untouched", async () => {
    const { fetch } = testRouter({
      store: createMemoryWaChatStore(),
      send: async () => ({ wamid: "wamid.FAST" }),
    });
    const sent = await boundedApi(fetch).sendMessage(CHAT, "Recharge successful");
    expect(sent.chat.id).toBe(CHAT);
  });
});
