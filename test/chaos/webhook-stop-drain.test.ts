import { describe, expect, it } from "vitest";
import { waitUntil } from "../support/chaos/env.ts";
import { useInstancePair } from "../support/chaos/pair.ts";
import { ChatUser } from "../support/chat.ts";

/**
 * A graceful stop (SIGTERM) in Telegram webhook mode while an update is still being handled after
 * Telegram got its answer: the stop waits for that update, as it does for the runner's in polling
 * mode, so what it writes last (the conversation's step) is not lost with the Redis connection.
 * Telegram counts the update delivered and will not send it again: the next message, handled by
 * the other instance, must find the chat at the step the user was shown.
 */

describe("a graceful stop in webhook mode", () => {
  const pair = useInstancePair("webhook-stop-drain", {
    extra: { TELEGRAM_WEBHOOK_ANSWER_MS: "200" },
  });

  it("waits for the update in hand: the next message finds the step the user was shown", async () => {
    const { emu, taps, logs } = pair;
    const user = new ChatUser(emu.emulator, 690_301);
    await user.say("/recharge", /What would you like to pay/);
    await user.tap("📱 Mobile top-up", /Which mobile number/);
    const isQuestion = (method: string, p: Record<string, unknown>) =>
      method === "sendMessage" && p.chat_id === user.id && /How much/.test(String(p.text));
    const holds = taps.map((t) => t.hold(isQuestion));
    const delivered = emu.emulator.stats().webhookDeliveries;
    user.emu.sendText(user.id, "9851690301");
    const handler = await Promise.race(holds.map((h, i) => h.reached.then(() => i)));
    // Telegram has its 200: it will not deliver this update again.
    await waitUntil(() => emu.emulator.stats().webhookDeliveries > delivered, "webhook answered");
    const stopping = handler === 0 ? pair.a : pair.b;
    const stopped = stopping.stop();
    // The held answer goes once the stop waits for the update (fixed) or has closed Redis (before).
    await waitUntil(
      () =>
        logs.matching(/stopping: waiting for the updates in hand/).length > 0 ||
        stopping.redis?.status === "end",
      "the stop under way",
    );
    for (const h of holds) h.release();
    await stopped;
    await user.waitFor(/How much/);
    const next = await user.say("100");
    // Before: the stop closed Redis under the update, which failed ("Something went wrong ...
    // check /history to see whether your order went through", though there is no order) and
    // lost the step: the other instance then read "100" as the mobile number.
    expect(user.botTexts().filter((t) => /Something went wrong/.test(t))).toEqual([]);
    expect(next.text).toMatch(/Please check your order/);
    expect(logs.errors()).toEqual([]);
  });
});
