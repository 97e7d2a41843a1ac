import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import {
  ledgerFor,
  sandboxLedger,
  startTestSystem,
  type TestSystem,
  type TestUser,
} from "../support/system.ts";

/**
 * Issue 16, "Never lose the customer's work", item 2: the confirmation is one message. Text typed
 * at it edits that message in place (a reason on top, in the customer's language) instead of
 * sending anything new, so five tries leave one message with Confirm; after an Edit the changed
 * confirmation comes as a new message below the customer's answer and the earlier one has no
 * buttons; one order and one debit at the new amount. On Redis, so every step is a replay of
 * stored conversation state.
 */
describe("the confirmation, one message edited in place, end to end", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ redis: true });
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  const t = (locale: string, key: string) => ts.system.deps.i18n.t(locale, key);

  /** Bot API calls of `method` made in `u`'s chat so far. */
  const calls = (u: TestUser, method: string) =>
    u.emu.calls(method).filter((c) => Number(c.params.chat_id) === u.id).length;
  const counts = (u: TestUser) => ({
    sendMessage: calls(u, "sendMessage"),
    editMessageText: calls(u, "editMessageText"),
    editMessageReplyMarkup: calls(u, "editMessageReplyMarkup"),
  });
  const withConfirm = (u: TestUser, label: string) => u.chat().filter((m) => u.hasButton(label, m));
  const message = (u: TestUser, id: number) => u.chat().find((m) => m.id === id);

  /**
   * Waits until the bot has handled everything the chat sent so far, without changing anything:
   * a button of an answered question, pressed again, is answered "no longer active" (updates of
   * one chat are handled in order).
   */
  async function settled(u: TestUser, answered: TranscriptEntry): Promise<void> {
    const data = answered.inlineKeyboard?.[0]?.[0]?.callback_data ?? "";
    const press = u.emu.pressButton(u.id, answered.id, data, { force: true });
    await u.emu.waitFor(() =>
      u.emu.callbackAnswers().some((a) => a.callback_query_id === press.callback_query_id),
    );
  }

  async function mobileToConfirm(
    u: TestUser,
    locale: "en" | "ne" | "hi",
    number: string,
    amount: string,
  ): Promise<{ amountQuestion: TranscriptEntry; confirm: TranscriptEntry }> {
    await u.say("/recharge", t(locale, "menu-prompt"));
    await u.tap(t(locale, "menu-mobile"), t(locale, "mobile-ask-number"));
    const howMuch = ts.system.deps.i18n
      .t(locale, "mobile-ask-amount", { min: "", max: "" })
      .split(" ")[0]!;
    // The number's series names the operator: the amount question comes next.
    const amountQuestion = await u.say(number, new RegExp(`${number}[^]*${howMuch}`));
    const confirm = await u.say(amount, new RegExp(t(locale, "confirm-title")));
    return { amountQuestion, confirm };
  }

  it("answers five typed texts by editing the confirmation, then an Edit of the amount places one order (English)", async () => {
    const u = ts.user(1731);
    const { amountQuestion, confirm } = await mobileToConfirm(u, "en", "9841231731", "150");
    const reason = "Please use the buttons below: ✅ Confirm, ✏️ Edit or ✖ Cancel.";
    const before = counts(u);
    for (const typed of ["yes", "ok", "150", "confirm", "yes"]) u.emu.sendText(u.id, typed);
    await u.waitFor((m) => m.id === confirm.id && m.text.startsWith(reason));
    await settled(u, amountQuestion);

    // No new message, one edit (the same reason again would not change it), one Confirm button.
    expect(counts(u)).toEqual({ ...before, editMessageText: before.editMessageText + 1 });
    expect(u.botMessages().filter((m) => m.id > confirm.id)).toEqual([]);
    expect(withConfirm(u, "✅ Confirm").map((m) => m.id)).toEqual([confirm.id]);
    expect(message(u, confirm.id)?.text).toBe(`${reason}\n\n${confirm.text}`);
    expect(u.buttons(message(u, confirm.id))).toEqual(u.buttons(confirm));

    // Edit: the question comes below, the confirmation keeps its text without the reason or buttons.
    await u.tap("✏️ Amount", /How much\?/);
    expect(message(u, confirm.id)).toMatchObject({ text: confirm.text });
    expect(u.buttons(message(u, confirm.id))).toEqual([]);
    const changed = await u.say("300", /Please check your order/);
    expect(changed.text).toContain("Amount: Rs 300");
    expect(withConfirm(u, "✅ Confirm").map((m) => m.id)).toEqual([changed.id]);

    const { ref } = await u.confirmUntil("succeeded");
    expect(u.buttons(message(u, changed.id))).toEqual([]);
    const placed = await ts.system.orders.listByUser(1731, 10);
    expect(placed).toHaveLength(1);
    expect(placed[0]).toMatchObject({ reference: ref, amountPaisa: 30_000, status: "success" });
    expect(ledgerFor(ts, ref)).toMatchObject([{ connectionNo: "9841231731", amountPaisa: 30_000 }]);
    expect(sandboxLedger(ts).filter((r) => r.connectionNo === "9841231731")).toHaveLength(1);
  });

  it("in Nepali, with a /help in between: the confirmation comes below the help once, then is edited", async () => {
    const u = ts.user(1732, { language_code: "ne" });
    const { amountQuestion, confirm } = await mobileToConfirm(u, "ne", "9841231732", "150");
    const reason = t("ne", "confirm-use-buttons");
    expect(reason).toBe("कृपया तलका बटन प्रयोग गर्नुहोस्: ✅ पुष्टि, ✏️ बदल्न वा ✖ रद्द।");
    const start = counts(u);
    for (const typed of ["हो", "ठीक छ"]) u.emu.sendText(u.id, typed);
    await u.waitFor((m) => m.id === confirm.id && m.text.startsWith(reason));
    // /help is answered below the confirmation; text typed after it brings the confirmation down
    // (the reason should be where the customer reads), and the one above loses its buttons.
    await u.say("/help", t("ne", "help-text").split("\n")[0]!);
    const again = await u.say("पुष्टि", (m) => m.text === `${reason}\n\n${confirm.text}`);
    expect(message(u, confirm.id)).toMatchObject({ text: confirm.text });
    for (const typed of ["हो", "150", "ठीक छ"]) u.emu.sendText(u.id, typed);
    await settled(u, amountQuestion);

    // Two messages sent (the help and the confirmation again), one edit for the five texts.
    expect(counts(u)).toEqual({
      sendMessage: start.sendMessage + 2,
      editMessageText: start.editMessageText + 2,
      editMessageReplyMarkup: start.editMessageReplyMarkup,
    });
    expect(withConfirm(u, "✅ पुष्टि").map((m) => m.id)).toEqual([again.id]);
    expect(u.botMessages().filter((m) => m.id > again.id)).toEqual([]);

    await u.tap("✏️ रकम", /कति\?/);
    const changed = await u.say("250", /रकम: रु 250/);
    expect(withConfirm(u, "✅ पुष्टि").map((m) => m.id)).toEqual([changed.id]);
    await u.tap("✅ पुष्टि", /🧾 अर्डर \d+/);
    const placed = await ts.system.orders.listByUser(1732, 10);
    expect(placed).toHaveLength(1);
    expect(placed[0]).toMatchObject({ amountPaisa: 25_000, locale: "ne" });
    const ref = placed[0]!.reference;
    await u.waitFor(`✅ अर्डर ${ref} सफल`);
    expect(ledgerFor(ts, ref)).toMatchObject([{ connectionNo: "9841231732", amountPaisa: 25_000 }]);
  });

  it("in Hindi: Back after a reason leaves the plain confirmation, and the amount question is asked again", async () => {
    const u = ts.user(1733, { language_code: "hi" });
    const { confirm } = await mobileToConfirm(u, "hi", "9841231733", "150");
    const reason = t("hi", "confirm-use-buttons");
    u.emu.sendText(u.id, "हाँ");
    await u.waitFor((m) => m.id === confirm.id && m.text.startsWith(reason));
    await u.tap("‹ पीछे", /कितना\?/);
    expect(message(u, confirm.id)).toMatchObject({ text: confirm.text });
    expect(u.buttons(message(u, confirm.id))).toEqual([]);
    const changed = await u.say("200", /राशि: रु 200/);
    expect(withConfirm(u, "✅ पुष्टि करें").map((m) => m.id)).toEqual([changed.id]);
  });

  it("a repeat's confirmation (no Edit buttons) names only Confirm and Cancel", async () => {
    const u = ts.user(1734);
    const ref = await u.placeMobile("9841231734", "100");
    await u.outcome(ref, "succeeded");
    await u.say("/history", /Your last orders/);
    const confirm = await u.tap("🔁 Repeat 9841231734 · Rs 100", /Please check your order/);
    u.emu.sendText(u.id, "again");
    const edited = await u.waitFor((m) => m.id === confirm.id && m.text !== confirm.text);
    expect(edited.text).toBe(
      `Please use the buttons below: ✅ Confirm or ✖ Cancel.\n\n${confirm.text}`,
    );
  });
});
