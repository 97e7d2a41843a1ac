import { describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import { account } from "../../src/ledger/index.ts";
import type { ApiTap } from "../support/chaos/api-tap.ts";
import { type InstancePair, useInstancePair } from "../support/chaos/pair.ts";
import { ChatUser, refOf } from "../support/chat.ts";
import { sleep, waitUntil } from "../support/wait.ts";

/**
 * Two instances on one Redis behind a round-robin balancer behave as one process (issue 25,
 * point 4): a chat's consecutive updates reach different instances, and the first is still being
 * handled when the second arrives (its Bot API answer is held at the instance's tap, while the
 * webhook was already answered after TELEGRAM_WEBHOOK_ANSWER_MS). Before the chat's turn in Redis
 * the second instance read the conversation as it was before the first update: a quickly typed
 * amount was read against the operator question, a double tap on Confirm gave two receipts (one
 * left "processing"), a double tap on a cash-in told both sides twice.
 */

const FAST_ANSWER = { TELEGRAM_WEBHOOK_ANSWER_MS: "150" };

/**
 * Holds, at both instances, the Bot API answer of the next sendMessage into `chatId` whose text
 * matches `text`, until `until` resolves (the update that sent it stays in the handling).
 */
function holdAnswer(taps: ApiTap[], chatId: number, text: RegExp) {
  const holds = taps.map((t) =>
    t.hold(
      (method, p) => method === "sendMessage" && p.chat_id === chatId && text.test(String(p.text)),
    ),
  );
  return {
    reached: Promise.race(holds.map((h) => h.reached)),
    release: () => {
      for (const h of holds) h.release();
    },
  };
}

/**
 * The number of webhook deliveries so far, once every update sent is delivered (an update's
 * delivery ends a moment after its answer shows in the chat).
 */
async function deliveriesNow(pair: InstancePair): Promise<number> {
  await waitUntil(
    () => Number(pair.emu.emulator.webhookInfo().pending_update_count) === 0,
    "every update delivered",
    { timeoutMs: 15_000, intervalMs: 20 },
  );
  return pair.emu.emulator.stats().webhookDeliveries;
}

/** Waits until the emulator has delivered `n` more webhook updates than `before`. */
async function delivered(pair: InstancePair, before: number, n: number): Promise<void> {
  await waitUntil(
    () => pair.emu.emulator.stats().webhookDeliveries >= before + n,
    `${n} more webhook deliveries`,
    { timeoutMs: 15_000, intervalMs: 20 },
  );
}

/** The chat's receipts (🧾 Order N …) as they read now. */
const receipts = (u: ChatUser): TranscriptEntry[] =>
  u.botMessages().filter((m) => /^🧾 Order \d+/.test(m.text));

describe("two instances on one Redis: one chat's updates in order", () => {
  const pair = useInstancePair("two-instances-orders", { extra: FAST_ANSWER });

  it("an amount typed while the number is still handled is answered against 'How much?'", async () => {
    const u = new ChatUser(pair.emu.emulator, 695_301);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    // The number's answer ("How much?") is held at whichever instance handles the number.
    const hold = holdAnswer(pair.taps, u.id, /How much/);
    const before = await deliveriesNow(pair);
    u.emu.sendText(u.id, "9851695301");
    await hold.reached;
    const typed = u.emu.sendText(u.id, "200");
    // The amount was delivered (to the other instance) while the number is still in the handling.
    await delivered(pair, before, 2);
    hold.release();
    const answer = await u.emu.waitForBotMessage(u.id, /Please check your order|buttons|How much/, {
      afterId: typed.message_id,
      timeoutMs: 15_000,
    });
    expect(answer.text).toMatch(/Please check your order/);
    expect(answer.text).toContain("Rs 200");
    // Nothing was said against the number question after the amount was typed.
    const after = u.botMessages().filter((m) => m.id > typed.message_id);
    expect(after.map((m) => m.text).join("\n")).not.toMatch(/use the buttons/i);
  });

  it("a double tap on Confirm at two instances gives one order and one receipt, edited to its outcome", async () => {
    const u = new ChatUser(pair.emu.emulator, 695_302);
    const confirm = await u.mobileToConfirm("9851695302", "200");
    const data = confirm.inlineKeyboard?.flat().find((b) => b.text === "✅ Confirm")?.callback_data;
    expect(data).toBeDefined();
    // The receipt's answer is held: the first tap is in the handling when the second arrives.
    const hold = holdAnswer(pair.taps, u.id, /^🧾 Order/);
    const before = await deliveriesNow(pair);
    u.emu.pressButton(u.id, confirm.id, data ?? "");
    await hold.reached;
    u.emu.pressButton(u.id, confirm.id, data ?? "", { force: true });
    await delivered(pair, before, 2);
    hold.release();
    const first = await u.waitFor(/^🧾 Order \d+/);
    const ref = refOf(first.text);
    await u.outcome(ref, "succeeded");
    const orders = await pair.a.orders.listByUser(u.id, 10);
    expect(orders.map((o) => o.reference)).toEqual([ref]);
    // One receipt, and it says how the order ended (nothing left at "processing").
    const shown = await waitUntil(
      () => {
        const list = receipts(u);
        return list.every((m) => /succeeded|✅/.test(m.text) && !/⏳/.test(m.text)) ? list : null;
      },
      "every receipt edited to the outcome",
      { timeoutMs: 15_000 },
    ).catch(() => receipts(u));
    expect(shown.map((m) => m.text.split("\n")[0])).toEqual([`🧾 Order ${ref}`]);
    expect(shown[0]?.text).not.toMatch(/⏳/);
    expect(pair.provider.executes.get(ref)).toBe(1);
  });
});

describe("two instances on one Redis: a redelivered update is handled once", () => {
  const pair = useInstancePair("two-instances-redelivery", { extra: FAST_ANSWER });

  /**
   * The update's own lease is gone for updates with a chat (the chat's turn keeps a second
   * handler out; the done mark is read in the turn): an amount redelivered to the other instance
   * while the first still handles it, and again once it is done, is answered once (handled twice,
   * the second would be read against the confirmation: "use the buttons").
   */
  it("an amount redelivered to the other instance mid-handling and after is answered once", async () => {
    const u = new ChatUser(pair.emu.emulator, 695_303);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    await u.say("9851695303", /How much/);
    const hold = holdAnswer(pair.taps, u.id, /Please check your order/);
    const before = await deliveriesNow(pair);
    const typed = u.emu.sendText(u.id, "200");
    await hold.reached;
    u.emu.redeliver(typed.update_id);
    await delivered(pair, before, 2);
    hold.release();
    await u.emu.waitForBotMessage(u.id, /Please check your order/, { afterId: typed.message_id });
    const after = await deliveriesNow(pair);
    u.emu.redeliver(typed.update_id);
    await delivered(pair, after, 1);
    // Handled in the chat's order: once /cancel is answered, both redeliveries were handled.
    await u.say("/cancel", /cancel/i);
    const said = u.botMessages().filter((m) => m.id > typed.message_id);
    expect(said.map((m) => m.text).join("\n")).not.toMatch(/use the buttons/i);
    expect(said.filter((m) => /Please check your order/.test(m.text))).toHaveLength(1);
    expect(said).toHaveLength(2);
  });
});

const AGENT = 695_311;
const CUSTOMER = 695_312;

describe("two instances on one Redis: a cash-in confirmed at both", () => {
  const pair = useInstancePair("two-instances-cashin", {
    extra: { ...FAST_ANSWER, ACCESS_MODE: "prepaid", AGENT_IDS: String(AGENT) },
  });

  it("books once and tells the customer and the agent once each", async () => {
    const accounts = pair.a.deps.accounts;
    if (!accounts) throw new Error("no accounts in prepaid mode");
    const customer = new ChatUser(pair.emu.emulator, CUSTOMER);
    const shared = customer.emu.sendContact(CUSTOMER, { phoneNumber: "+9779800695312" });
    await customer.emu.waitForBotMessage(CUSTOMER, /Registered with/, {
      afterId: shared.message_id,
    });
    const credited = await accounts.creditAgent({
      id: "credit-two-instances",
      adminUserId: 1,
      agentUserId: AGENT,
      amountPaisa: 100_000,
    });
    expect(credited.ok).toBe(true);

    const agent = new ChatUser(pair.emu.emulator, AGENT);
    await agent.say("/cashin", /customer's phone number/);
    await agent.say("9800695312", /How much cash/);
    const confirm = await agent.say("10", /Add Rs 10 to the balance of \+977 9800695312/);
    const data = confirm.inlineKeyboard?.flat().find((b) => b.text === "✅ Confirm")?.callback_data;
    expect(data).toBeDefined();
    const hold = holdAnswer(pair.taps, AGENT, /Cash-in done/);
    const before = await deliveriesNow(pair);
    agent.emu.pressButton(AGENT, confirm.id, data ?? "");
    await hold.reached;
    agent.emu.pressButton(AGENT, confirm.id, data ?? "", { force: true });
    await delivered(pair, before, 2);
    hold.release();
    await customer.waitFor(/Rs 10 was added to your balance/);
    await agent.waitFor(/Cash-in done: Rs 10/);
    // Both taps are handled (the second one's answer is a callback answer, no message) before
    // the chats are counted: the emulator has nothing left to deliver and the turn is free.
    await waitUntil(
      () => pair.emu.emulator.stats().webhookDeliveries >= before + 2,
      "both taps delivered",
    );
    await waitUntil(
      async () =>
        ((await pair.redis.get(`${pair.prefix}{chat:${AGENT}}:hold`)) ?? "f:").startsWith("f:"),
      "the agent's chat turn free",
      { timeoutMs: 15_000 },
    );
    // A repeat would come from the other instance's background handling: give it a moment.
    await sleep(1_000);
    const told = customer.botTexts().filter((t) => /was added to your balance/.test(t));
    const done = agent.botTexts().filter((t) => /Cash-in done/.test(t));
    expect(told).toHaveLength(1);
    expect(done).toHaveLength(1);
    expect((await pair.a.ledger.balance(account.customer(CUSTOMER))).availablePaisa).toBe(1_000);
  });
});
