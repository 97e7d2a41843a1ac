import { describe, expect, it } from "vitest";
import { dropWebhooks, ended, RECONCILE_BY_HAND } from "../support/released-chat-rig.ts";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * Review s31-notify, 1, on Telegram: a user who blocked the bot (a push refused 403: the chat
 * marked inactive) and unblocks it from Settings -> Blocked users sends no /start; Telegram sends a
 * `my_chat_member` update (kicked -> member), which nothing handled: every later order's result
 * was dropped and its receipt kept saying "with the operator". Now that update clears the mark.
 * The aggregator's webhooks are dropped and the reconciler run by hand; the clock is moved past
 * the minute in which a chat that just ordered is taken as active (deliver.ts `orderedLately`).
 */

let shift = 0;
const ts = useTestSystem({ redis: true, env: RECONCILE_BY_HAND, now: () => Date.now() + shift });

const USER = 4401;

describe("review s31-notify 1: a Telegram user who unblocks the bot without /start", () => {
  it("gets the next order's result, and its receipt shows the outcome", async () => {
    const emu = ts.system.emulator!;
    const u = ts.user(USER);
    dropWebhooks(ts);
    const first = await u.placeMobile("9841234567", "120");
    emu.users.block(USER, true);
    await ended(ts, first);
    await waitUntil(() => ts.system.queue.isChatInactive(USER), "the chat marked inactive");

    emu.users.block(USER, false);
    await waitUntil(
      async () => !(await ts.system.queue.isChatInactive(USER)),
      "the unblock clears the mark",
    );
    await u.mobileToConfirm("9841234567", "130");
    const { receipt, ref } = await u.confirm();
    shift += 61_000;
    await ended(ts, ref);
    await u.outcome(ref, "succeeded");
    const edited = await emu.waitForBotMessage(
      USER,
      (m) => m.id === receipt.id && !m.text.includes("⏳"),
      { timeoutMs: 8000 },
    );
    expect(edited.text).toContain(`Order ${ref}`);
    expect(edited.text).toContain("✅");
  });
});
