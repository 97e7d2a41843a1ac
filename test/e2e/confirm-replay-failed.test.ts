import type { ApiClientOptions } from "grammy";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import { account } from "../../src/ledger/index.ts";
import {
  failNextConversationWrite,
  restoreConversationWrites,
} from "../support/conversation-write-fault.ts";
import { startTestSystem, type TestSystem, type TestUser } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * Review s25-c, finding 4: the turn that placed an order dies before the submitting mark (here:
 * its receipt cannot be sent, and its conversation's save is lost, so the stored conversation
 * still waits at the confirmation and the update's done mark is not written). The reconciler
 * fails the order as never submitted and returns the hold; then Telegram delivers the Confirm
 * again. That replay must not send a new "🧾 Order … Submitting … Held from your balance"
 * receipt (nothing would ever edit it): it answers with the order's reference and its true
 * status, so the chat's last word about the money is the true one. Prepaid, on Redis.
 */

describe("a Confirm delivered again after the reconciler failed its order (prepaid, Redis)", () => {
  let ts: TestSystem;
  // The process's clock: moved past the placed timeout so the reconciler fails the order.
  let skew = 0;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis: true,
      env: { ACCESS_MODE: "prepaid" },
      now: () => Date.now() + skew,
    });
  });
  afterAll(async () => {
    restoreConversationWrites();
    await ts.cleanup();
  });
  afterEach(() => {
    restoreConversationWrites();
    delete (ts.system.bot.api.options as ApiClientOptions).fetch;
  });

  const t = (key: string, args?: Record<string, string>) => ts.system.deps.i18n.t("en", key, args);
  const data = (m: TranscriptEntry, label: string) =>
    (m.inlineKeyboard ?? []).flat().find((b) => b.text === label)?.callback_data ?? "";

  /**
   * The bot's fetch, with every receipt ("🧾 Order …" sent as a new message) refused, or held
   * until `release` (then sent).
   */
  function refuseReceipts(action: "fail" | "hold" = "fail") {
    let refused = 0;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetchFn = async (url: string, init?: { body?: unknown; signal?: AbortSignal }) => {
      const body = typeof init?.body === "string" ? init.body : "";
      if (String(url).endsWith("/sendMessage") && body.includes("🧾")) {
        refused++;
        if (action === "fail") {
          return new Response(
            JSON.stringify({ ok: false, error_code: 400, description: "Bad Request: injected" }),
            { status: 400, headers: { "content-type": "application/json" } },
          );
        }
        await released;
      }
      const { signal, ...rest } = init ?? {};
      const native = new AbortController();
      if (signal?.aborted) native.abort();
      else signal?.addEventListener("abort", () => native.abort());
      return fetch(url, { ...rest, signal: native.signal } as RequestInit);
    };
    (ts.system.bot.api.options as ApiClientOptions).fetch =
      fetchFn as unknown as ApiClientOptions["fetch"];
    return { refused: () => refused, release };
  }

  /** Everything the chat sent so far handled and saved (an answered question's button, again). */
  async function settled(u: TestUser): Promise<void> {
    const asked = u.botMessages().findLast((m) => /How much/.test(m.text));
    const press = u.emu.pressButton(u.id, asked?.id ?? 0, data(asked!, u.buttons(asked)[0]!), {
      force: true,
    });
    await u.emu.waitFor(() =>
      u.emu.callbackAnswers().some((a) => a.callback_query_id === press.callback_query_id),
    );
  }

  it("answers with the order's reference and 'failed', and sends no 'submitting' receipt", async () => {
    const u = ts.user(2561);
    await u.register();
    await u.credit(50_000);
    const confirm = await u.mobileToConfirm("9841256101", "150");
    await settled(u);

    // The turn that places the order dies before its submitting mark.
    const receipts = refuseReceipts();
    failNextConversationWrite(`${ts.prefix}conversation:${u.id}`);
    const press = u.emu.clickButton(u.id, "✅ Confirm", { messageId: confirm.id });
    const checking = await u.waitFor(/Something went wrong on our side while processing order/);
    const ref = /order (\d+)/.exec(checking.text)?.[1] ?? "";
    await u.waitFor((m) => m.id > checking.id && m.text === t("common-error"));
    expect(receipts.refused()).toBe(1);
    delete (ts.system.bot.api.options as ApiClientOptions).fetch;
    expect((await ts.system.orders.get(ref))?.status).toBe("placed");

    // The reconciler fails it as never submitted; the hold goes back.
    skew = 60_000;
    await waitUntil(
      async () => (await ts.system.orders.get(ref))?.status === "failed",
      "the reconciler to fail the placed order",
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    const failedPush = await u.outcome(ref, "failed");

    // Telegram delivers the Confirm again.
    u.emu.redeliver(press.update_id);
    const placedWords = t("confirm-placed-already", { ref, status: t("status-failed") });
    const told = await u.waitFor((m) => m.id > failedPush.id && m.text === placedWords);

    const after = u.botMessages().filter((m) => m.id > failedPush.id);
    expect(after).toEqual([told]);
    // Nothing in the chat says the order is submitting or holds money.
    expect(u.botMessages().filter((m) => /🧾 Order/.test(m.text))).toEqual([]);
    expect(u.botTexts().filter((x) => /Held from your balance|⏳/.test(x))).toEqual([]);
    const balance = await ts.system.ledger.balance(account.customer(u.id));
    expect(balance).toMatchObject({ postedPaisa: 50_000, heldPaisa: 0 });
    expect(await ts.system.orders.listByUser(u.id, 5)).toHaveLength(1);
  }, 40_000);

  it("a receipt sent while the reconciler failed the order is followed by the true status", async () => {
    skew = 0;
    const u = ts.user(2562);
    await u.register();
    await u.credit(50_000);
    const confirm = await u.mobileToConfirm("9841256102", "150");
    // The receipt is on its way (held) when the reconciler fails the order, still placed.
    const receipts = refuseReceipts("hold");
    u.emu.clickButton(u.id, "✅ Confirm", { messageId: confirm.id });
    await waitUntil(async () => receipts.refused() === 1, "the receipt to be on its way", {
      timeoutMs: 10_000,
      intervalMs: 20,
    });
    const [order] = await ts.system.orders.listByUser(u.id, 1);
    const ref = order?.reference ?? "";
    skew = 60_000;
    await waitUntil(
      async () => (await ts.system.orders.get(ref))?.status === "failed",
      "the reconciler to fail the placed order",
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    await u.outcome(ref, "failed");
    receipts.release();
    const receipt = await u.waitFor(/🧾 Order/);
    const placedWords = t("confirm-placed-already", { ref, status: t("status-failed") });
    const told = await u.waitFor((m) => m.id > receipt.id && m.text === placedWords);
    // The last word about the order is its true status; it was never executed.
    expect(u.botMessages().at(-1)).toEqual(told);
    expect((await ts.system.orders.get(ref))?.submittedAt).toBeUndefined();
    expect(await ts.system.ledger.balance(account.customer(u.id))).toMatchObject({
      postedPaisa: 50_000,
      heldPaisa: 0,
    });
  }, 40_000);
});
