import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import { decodeConversation } from "../../src/bot/conversation-storage.ts";
import { account } from "../../src/ledger/index.ts";
import {
  failNextConversationWrite,
  restoreConversationWrites,
} from "../support/conversation-write-fault.ts";
import { REDIS_URL } from "../support/redis.ts";
import { startTestSystem, type TestSystem, type TestUser } from "../support/system.ts";

/**
 * A price change (a deploy with a new schedule) meeting a Confirm run again after a crash (review
 * s25-d, 3 and 4). The checkout compares the figures before the cap reserves; when they changed it
 * used to answer "the price changed" unless the key's order was among the user's 20 newest, and it
 * never went to place. So (3) a reservation a Confirm took before its instance died, ahead of its
 * place, stayed counted for the day, and (4) an order placed under the key, older than 20 of the
 * user's orders, was said not charged and offered again at the new price (a second order). Now
 * place answers both with the figures shown: the key's order (an exact look-up), or a refusal
 * that takes back the key's reservation. On Redis, so every turn is a replay of the stored
 * conversation.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

describe("a Confirm run again after a crash, the price changed meanwhile", () => {
  let ts: TestSystem;
  let redis: Redis;
  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), "repriced-crash-")), "prices.json");
    writeFileSync(file, JSON.stringify({ default: { fee: { flat: "5" } } }));
    ts = await startTestSystem({
      redis: true,
      env: { ACCESS_MODE: "prepaid", LOW_FLOAT_ALERT: "0", PRICE_SCHEDULE_FILE: file },
    });
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    restoreConversationWrites();
    redis.disconnect();
    await ts.cleanup();
  });
  afterEach(() => {
    restoreConversationWrites();
    // The schedule as the file has it, for the next test.
    const { schedule } = ts.system.config.pricing;
    schedule.default.fee = { kind: "flat", paisa: 500 };
  });

  const t = (key: string, args?: Record<string, string>) => ts.system.deps.i18n.t("en", key, args);
  const data = (m: TranscriptEntry, label: string) =>
    (m.inlineKeyboard ?? []).flat().find((b) => b.text === label)?.callback_data ?? "";
  const conversationKey = (u: TestUser) => `${ts.prefix}conversation:${u.id}`;

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

  /** The idempotency key the stored conversation fixed for its confirmation (its one UUID). */
  async function keyOfConfirmation(u: TestUser): Promise<string> {
    const state = decodeConversation(await redis.getBuffer(conversationKey(u)));
    const keys = new Set(JSON.stringify(state).match(UUID) ?? []);
    expect(keys.size).toBe(1);
    return [...keys][0]!;
  }

  /** The new price list: a fee of Rs 10 instead of Rs 5. */
  function feeOfTen(): void {
    ts.system.config.pricing.schedule.default.fee = { kind: "flat", paisa: 1_000 };
  }

  it("(3) a reservation taken before the crash is taken back, and the price change said", async () => {
    const u = ts.user(25_431);
    await u.register();
    await u.credit(500_000);
    const first = await u.mobileToConfirm("9841025431", "100");
    expect(first.text).toContain("Rs 105");
    await settled(u);
    // The Confirm that died: its reserve under the key went through, its place never ran, its
    // conversation's save was lost (the stored conversation still waits at the confirmation).
    const key = await keyOfConfirmation(u);
    const { limits } = ts.system.deps;
    const cap = limits.terms.dailyCapPaisa;
    expect((await limits.reserve(u.id, 10_500, key)).ok).toBe(true);
    expect((await limits.headroom(u.id)).spendLeftPaisa).toBe(cap - 10_500);
    feeOfTen();
    // Telegram hands the Confirm again, to an instance priced with the new list.
    const again = await u.tap("✅ Confirm", /Please check/);
    expect(u.botTexts()).toContain(t("confirm-price-changed"));
    expect(again.text).toContain("Rs 110");
    // Nothing held and nothing counted for the day: the old key's reservation was taken back.
    expect((await ts.system.ledger.balance(account.customer(u.id))).heldPaisa).toBe(0);
    expect((await limits.headroom(u.id)).spendLeftPaisa).toBe(cap);
    // The new confirmation's order is the one the day counts.
    const { ref } = await u.confirm();
    expect((await ts.system.orders.get(ref))?.price?.totalPaisa).toBe(11_000);
    expect((await limits.headroom(u.id)).spendLeftPaisa).toBe(cap - 11_000);
  });

  it("(4) an order placed under the key, behind 20 newer ones, is said placed: no second order", async () => {
    const u = ts.user(25_432);
    await u.register();
    await u.credit(1_000_000);
    const number = "9841025432";
    const confirm = await u.mobileToConfirm(number, "100");
    await settled(u);
    const key = await keyOfConfirmation(u);
    // Confirm: the order placed and its receipt sent, the conversation's save lost.
    failNextConversationWrite(conversationKey(u));
    const { ref } = await u.confirm();
    await u.waitFor((m) => m.id > confirm.id && m.text === t("common-error"));
    await u.outcome(ref, "succeeded");
    // 21 orders of the user's since (an agent for them, another chat): the key's order is not
    // among the 20 newest.
    const op = ts.system.deps.catalog.byCategory("mobile").find((x) => x.name === "NTC Prepaid")!;
    for (let i = 0; i < 21; i++) {
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
    expect(newest.some((o) => o.idempotencyKey === key)).toBe(false);
    feeOfTen();
    // The old confirmation's own Confirm, tapped again.
    const last = u.lastId();
    u.emu.pressButton(u.id, confirm.id, data(confirm, "✅ Confirm"), { force: true });
    const told = await u.emu.waitForBotMessage(
      u.id,
      (m) => m.text.includes(ref) || m.text === t("confirm-price-changed"),
      { afterId: last, timeoutMs: 10_000 },
    );
    expect(told.text).toBe(t("confirm-placed-already", { ref, status: t("status-success") }));
    expect(u.botTexts()).not.toContain(t("confirm-price-changed"));
    expect(u.hasButton("✅ Confirm")).toBe(false);
    // One order under the key, at the figures confirmed then.
    const all = await ts.system.orders.listByUser(u.id, 50);
    const underKey = all.filter((o) => o.idempotencyKey === key);
    expect(underKey.map((o) => o.reference)).toEqual([ref]);
    expect(underKey[0]?.price?.totalPaisa).toBe(10_500);
  });
});
