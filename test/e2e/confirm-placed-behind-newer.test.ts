import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import { createRedisBlocked } from "../../src/accounts/index.ts";
import {
  failNextConversationWrite,
  restoreConversationWrites,
} from "../support/conversation-write-fault.ts";
import {
  ledgerFor,
  REDIS_URL,
  sandboxLedger,
  startTestSystem,
  type TestSystem,
  type TestUser,
} from "../support/system.ts";

/**
 * A Confirm whose order was placed but whose conversation's save was lost (as in
 * confirm-placed-save-lost), and then 21 orders of the same user placed from elsewhere (a linked
 * WhatsApp chat, another device, staff for them): the key's order is not among the user's 20
 * newest. The confirmation's Edit, a text typed at it and its Confirm after a block all look the
 * key up (checkout.ts, placedOrder). That look-up used to scan the user's 20 newest orders, so it
 * missed the order: the Edit asked the amount again (a second order priced while the first is
 * placed and submitted), the text got the confirmation back, and the Confirm of a customer blocked
 * since was refused as if nothing had been placed. Now it is an exact look-up of the key. On
 * Redis, so every step is a replay of the stored conversation.
 */

const NEWER = 21;

describe("a Confirm's order placed, its save lost, 21 newer orders since", () => {
  let ts: TestSystem;
  let other: Redis;
  beforeAll(async () => {
    ts = await startTestSystem({ redis: true });
    other = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    restoreConversationWrites();
    other.disconnect();
    await ts.cleanup();
  });
  afterEach(() => {
    restoreConversationWrites();
  });

  const t = (key: string, args?: Record<string, string>) => ts.system.deps.i18n.t("en", key, args);
  const data = (m: TranscriptEntry, label: string) =>
    (m.inlineKeyboard ?? []).flat().find((b) => b.text === label)?.callback_data ?? "";
  const placedWords = (ref: string) =>
    t("confirm-placed-already", { ref, status: t("status-success") });

  /**
   * Waits until the bot has handled (and saved) everything the chat sent so far: a button of the
   * answered amount question, pressed again, is answered (one chat's updates are handled in order).
   */
  async function settled(u: TestUser): Promise<void> {
    const asked = u.botMessages().findLast((m) => /How much/.test(m.text));
    const press = u.emu.pressButton(u.id, asked?.id ?? 0, data(asked!, u.buttons(asked)[0]!), {
      force: true,
    });
    await u.emu.waitFor(() =>
      u.emu.callbackAnswers().some((a) => a.callback_query_id === press.callback_query_id),
    );
  }

  /**
   * To the confirmation, Confirm with the save lost (the order placed and succeeded), then 21
   * orders of the user's placed elsewhere: the key's order is behind the 20 newest.
   */
  async function placedBehindNewer(u: TestUser, number: string) {
    const confirm = await u.mobileToConfirm(number, "150");
    await settled(u);
    failNextConversationWrite(`${ts.prefix}conversation:${u.id}`);
    const { ref } = await u.confirm();
    await u.waitFor((m) => m.id > confirm.id && m.text === t("common-error"));
    await u.outcome(ref, "succeeded");
    const op = ts.system.deps.catalog.byCategory("mobile").find((x) => x.name === "NTC Prepaid")!;
    for (let i = 0; i < NEWER; i++) {
      await ts.system.orders.place({
        category: "mobile",
        region: "np",
        details: {},
        idempotencyKey: `newer-${u.id}-${i}`,
        userId: u.id,
        chatId: u.id,
        locale: "en",
        operatorId: op.id,
        operatorTypeId: op.operatorTypeId,
        operatorName: op.name,
        connectionNo: "9841099999",
        amountPaisa: 1_000,
      });
    }
    const newest = await ts.system.orders.listByUser(u.id, 20);
    expect(newest.map((o) => o.reference)).not.toContain(ref);
    return { confirm, ref };
  }

  /** One order to the number, one execute and one debit for it in the sandbox. */
  async function once(number: string, ref: string, userId: number) {
    const all = await ts.system.orders.listByUser(userId, 50);
    expect(all.filter((o) => o.connectionNo === number).map((o) => o.reference)).toEqual([ref]);
    expect(ledgerFor(ts, ref)).toHaveLength(1);
    expect(sandboxLedger(ts).filter((r) => r.connectionNo === number)).toHaveLength(1);
  }

  it("its Edit pressed again says the order was placed: no second order priced", async () => {
    const u = ts.user(2641);
    const number = "9841026411";
    const { confirm, ref } = await placedBehindNewer(u, number);
    const last = u.lastId();
    u.emu.pressButton(u.id, confirm.id, data(confirm, "✏️ Amount"), { force: true });
    const told = await u.emu.waitForBotMessage(
      u.id,
      (m) => m.text.includes(ref) || /How much/.test(m.text),
      { afterId: last, timeoutMs: 10_000 },
    );
    expect(told.text).toBe(placedWords(ref));
    expect(u.botMessages().filter((m) => m.id > last)).toEqual([told]);
    expect(u.hasButton("✅ Confirm")).toBe(false);
    await u.say("/recharge", /What would you like to pay/);
    await once(number, ref, u.id);
  });

  it("a text typed at it is answered with the order placed, not the confirmation again", async () => {
    const u = ts.user(2642);
    const number = "9841026412";
    const { confirm, ref } = await placedBehindNewer(u, number);
    const last = u.lastId();
    u.emu.sendText(u.id, "yes");
    // Told the order was placed (a new message), or the confirmation restated in place (an edit).
    const told = await u.waitFor(
      (m) =>
        (m.id > last && m.text.includes(ref)) || (m.id === confirm.id && m.text !== confirm.text),
    );
    expect(told.text).toBe(placedWords(ref));
    expect(u.chat().find((m) => m.id === confirm.id)?.text).toBe(confirm.text);
    expect(u.botMessages().filter((m) => m.id > last)).toEqual([told]);
    await u.say("/recharge", /What would you like to pay/);
    await once(number, ref, u.id);
  });

  it("its Confirm again, the customer blocked since, is said placed, not refused", async () => {
    const u = ts.user(2643);
    const number = "9841026413";
    const { confirm, ref } = await placedBehindNewer(u, number);
    const blocked = createRedisBlocked({ redis: other, prefix: ts.prefix });
    await blocked.block({ userId: u.id, reason: "after the order", by: 1, at: Date.now() });
    try {
      const last = u.lastId();
      u.emu.pressButton(u.id, confirm.id, data(confirm, "✅ Confirm"), { force: true });
      const told = await u.emu.waitForBotMessage(
        u.id,
        (m) => m.text.includes(ref) || /blocked/.test(m.text),
        { afterId: last, timeoutMs: 10_000 },
      );
      expect(told.text).toBe(placedWords(ref));
      expect(u.hasButton("✅ Confirm")).toBe(false);
    } finally {
      await blocked.unblock(u.id);
    }
    await u.say("/recharge", /What would you like to pay/);
    await once(number, ref, u.id);
  });
});
