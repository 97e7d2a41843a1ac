import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import { account } from "../../src/ledger/index.ts";
import {
  conversationWritesFailed,
  failNextConversationWrite,
  restoreConversationWrites,
} from "../support/conversation-write-fault.ts";
import {
  ledgerFor,
  sandboxLedger,
  startTestSystem,
  type TestSystem,
  type TestUser,
} from "../support/system.ts";

/**
 * A Confirm whose order was placed (receipt sent, execute gone) but whose conversation state was
 * not saved: the save rides the chat turn's release script (src/bot/carried-writes.ts), and here
 * that one write fails once. The update fails (the error boundary's "Something went wrong") and
 * the stored conversation still waits at the confirmation under the same idempotency key. The
 * next message or tap must not show that confirmation again (its Confirm would do nothing, its
 * Edit would price a second order, its "balance after" is from before the order): the customer is
 * told the order was placed, with its reference and status, and the flow ends. On Redis, so every
 * step is a replay of the stored conversation; staff mode (the merchant's wallet pays) and prepaid
 * (the customer's balance pays, and the confirmation shows the balance after).
 */

const FUNDED = 50_000;

describe.each([
  ["staff", 0],
  ["prepaid", 100],
])("a Confirm whose order was placed but whose save failed, end to end (%s)", (mode, offset) => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis: true,
      ...(mode === "prepaid" ? { env: { ACCESS_MODE: "prepaid" } } : {}),
    });
  });
  afterAll(async () => {
    restoreConversationWrites();
    await ts.cleanup();
  });
  afterEach(() => {
    restoreConversationWrites();
  });

  const t = (key: string, args?: Record<string, string>) => ts.system.deps.i18n.t("en", key, args);
  const data = (m: TranscriptEntry, label: string) =>
    (m.inlineKeyboard ?? []).flat().find((b) => b.text === label)?.callback_data ?? "";

  /**
   * Waits until the bot has handled (and saved) everything the chat sent so far: a button of the
   * answered amount question, pressed again, is answered "no longer active" (one chat's updates are
   * handled in order).
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

  /** Up to the confirmation, then Confirm with the state's save failing: the receipt and the error. */
  async function placedButNotSaved(u: TestUser, number: string) {
    if (mode === "prepaid") await fund(u);
    const confirm = await u.mobileToConfirm(number, "150");
    await settled(u);
    failNextConversationWrite(`${ts.prefix}conversation:${u.id}`);
    const before = conversationWritesFailed();
    const { ref } = await u.confirm();
    // The failed save fails the update after the order was placed: the error boundary's words.
    await u.waitFor((m) => m.id > confirm.id && m.text === t("common-error"));
    expect(conversationWritesFailed()).toBe(before + 1);
    await u.outcome(ref, "succeeded");
    return { confirm, ref };
  }

  /** Prepaid: the customer registered and credited. */
  async function fund(u: TestUser): Promise<void> {
    await u.register();
    const r = await ts.system.ledger.transfer({
      id: `fund-${u.id}`,
      debit: account.merchant.funding,
      credit: account.customer(u.id),
      amountPaisa: FUNDED,
      kind: "credit",
    });
    expect(r.ok).toBe(true);
  }

  /**
   * One order, one execute and one debit in the sandbox, whatever came after; prepaid: the balance
   * paid the order's total once.
   */
  async function once(u: TestUser, number: string, ref: string) {
    const orders = await ts.system.orders.listByUser(u.id, 10);
    expect(orders.map((o) => o.reference)).toEqual([ref]);
    expect(ledgerFor(ts, ref)).toHaveLength(1);
    expect(sandboxLedger(ts).filter((r) => r.connectionNo === number)).toHaveLength(1);
    if (mode !== "prepaid") return;
    const total = orders[0]?.price?.totalPaisa ?? 0;
    expect(total).toBeGreaterThan(0);
    expect(await ts.system.ledger.balance(account.customer(u.id))).toMatchObject({
      postedPaisa: FUNDED - total,
      heldPaisa: 0,
    });
    expect((await ts.system.ledger.check()).ok).toBe(true);
  }

  const placedWords = (ref: string) =>
    t("confirm-placed-already", { ref, status: t("status-success") });

  it("a message typed after it is answered with the order placed, not the confirmation again", async () => {
    const u = ts.user(1841 + offset);
    const { confirm, ref } = await placedButNotSaved(u, `9841${231_800 + 41 + offset}`);
    const last = u.lastId();
    const told = await u.say("yes", (m) => m.text.includes(ref));
    expect(told.text).toBe(placedWords(ref));
    // Nothing in the chat offers Confirm or an Edit any more, nor a balance after from before the
    // order; the confirmation was not touched.
    expect(told.text).not.toContain("Balance after");
    expect(u.hasButton("✅ Confirm")).toBe(false);
    expect(u.hasButton(/✏️/)).toBe(false);
    expect(u.chat().find((m) => m.id === confirm.id)?.text).toBe(confirm.text);
    expect(u.botMessages().filter((m) => m.id > last)).toEqual([told]);
    // The flow is over: the next text is no answer to a confirmation.
    await u.say("/recharge", /What would you like to pay/);
    await once(u, `9841${231_800 + 41 + offset}`, ref);
  });

  it("Confirm pressed again on it says the order was placed, and places nothing", async () => {
    const u = ts.user(1842 + offset);
    const { confirm, ref } = await placedButNotSaved(u, `9841${231_800 + 42 + offset}`);
    const last = u.lastId();
    u.emu.pressButton(u.id, confirm.id, data(confirm, "✅ Confirm"), { force: true });
    const told = await u.emu.waitForBotMessage(u.id, (m) => m.text.includes(ref), {
      afterId: last,
      timeoutMs: 10_000,
    });
    expect(told.text).toBe(placedWords(ref));
    expect(u.hasButton("✅ Confirm")).toBe(false);
    await u.say("/recharge", /What would you like to pay/);
    await once(u, `9841${231_800 + 42 + offset}`, ref);
  });

  it("its Edit pressed again asks nothing: the order was placed, no second one priced", async () => {
    const u = ts.user(1843 + offset);
    const { confirm, ref } = await placedButNotSaved(u, `9841${231_800 + 43 + offset}`);
    const last = u.lastId();
    u.emu.pressButton(u.id, confirm.id, data(confirm, "✏️ Amount"), { force: true });
    const told = await u.emu.waitForBotMessage(u.id, (m) => m.text.includes(ref), {
      afterId: last,
      timeoutMs: 10_000,
    });
    expect(told.text).toBe(placedWords(ref));
    expect(u.botMessages().filter((m) => m.id > last)).toEqual([told]);
    expect(u.hasButton("✅ Confirm")).toBe(false);
    await u.say("/recharge", /What would you like to pay/);
    await once(u, `9841${231_800 + 43 + offset}`, ref);
  });

  it("/cancel at it says the order was placed, not that anything was cancelled", async () => {
    const u = ts.user(1844 + offset);
    const number = `9841${231_800 + 44 + offset}`;
    const { ref } = await placedButNotSaved(u, number);
    const last = u.lastId();
    const told = await u.say("/cancel", (m) => m.text.includes(ref));
    expect(told.text).toBe(placedWords(ref));
    await u.say("/recharge", /What would you like to pay/);
    expect(u.botTexts()).not.toContain(t("common-cancelled"));
    expect(u.botMessages().filter((m) => m.id > last && m.id < told.id)).toEqual([]);
    await once(u, number, ref);
  });

  it("a command at it says the order was placed, then runs", async () => {
    const u = ts.user(1845 + offset);
    const number = `9841${231_800 + 45 + offset}`;
    const { ref } = await placedButNotSaved(u, number);
    const told = await u.say("/recharge", (m) => m.text.includes(ref));
    expect(told.text).toBe(placedWords(ref));
    // No "Leave this order?": the flow was over; the menu comes below.
    const menu = await u.waitFor(
      (m) => m.id > told.id && /What would you like to pay/.test(m.text),
    );
    expect(u.botMessages().filter((m) => m.id > told.id)).toEqual([menu]);
    await once(u, number, ref);
  });
});
