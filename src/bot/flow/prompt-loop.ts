import { InlineKeyboard } from "grammy";
import { flowButtons as CB } from "../callback-data.ts";
import type { FlowContext } from "../context.ts";
import type { SentMessage } from "../conversation-storage.ts";
import { isNotModified } from "../error-boundary.ts";
import { nextUpdate } from "./next-update.ts";
import { type FlowScope, GoBack } from "./scope.ts";

/**
 * The one wait-for-an-answer loop every question of a flow runs on: send the question, wait for
 * the next update of the chat (next-update.ts: idle, Cancel, the asides such as /help answered in
 * place, "Leave this order?" before another command or a menu button ends the flow), answer
 * buttons of older messages as "no longer active", and hand the rest to the question. Questions
 * only say what an answer means; how a chat is waited on is written here once.
 */

export { type FlowScope, GoBack, type Nav } from "./scope.ts";

/** Callback data of the toolkit's own buttons, built and parsed by the one codec. */
export { CB };

/** What one update meant to a question. */
export type Outcome<R> =
  /** The answer: the loop returns it. */
  | { kind: "done"; value: R }
  /** A reason or a hint, sent with the question's buttons; that message is now the question. */
  | { kind: "resend"; text: string }
  /**
   * The question's own message is edited to `text` (a reason on top of it), so typing adds no
   * message; it is sent again below instead when the loop has sent something after it (an answer
   * to /help), so the reason is where the customer reads. The confirmation answers text this way.
   */
  | { kind: "restate"; text: string }
  /** The buttons changed (a page turned): the question's message is edited in place. */
  | { kind: "edit" }
  /** Nothing to send; a button press is answered with `toast` when given. */
  | { kind: "stay"; toast?: string };

export interface Question<R> {
  /** Sent first, and again when the chat turns out to be ahead of the conversation. */
  text: string;
  /** Built afresh for every send (paging changes them); the loop adds the Cancel row. */
  buttons: () => InlineKeyboard;
  /** A press of a button of the current question message. */
  onButton: (data: string, u: FlowContext) => Outcome<R>;
  /** Anything else the user sends: text, a sticker, a photo. */
  onMessage: (u: FlowContext) => Outcome<R>;
  /**
   * When given, the answer to the button press that ends the question ("done") is handed here
   * still in flight instead of being awaited, so the caller can act on the answer meanwhile (the
   * checkout places the order); the caller must await it before the conversation returns.
   */
  answerLater?: (answered: Promise<unknown>) => void;
  /**
   * Buttons taken from any message, not only the question's own: "Continue" under a top-up's
   * credited notice answers the shortfall question it was started from (shortfall.ts).
   */
  anywhere?: (data: string) => boolean;
  /**
   * Whether the question no longer stands, asked of each update before anything answers it (the
   * question's own message is `asked`): when true it has told the chat why, and the flow ends.
   * The confirmation's order may have been placed by a turn whose save was lost (checkout.ts).
   * `moved`: the chat acts as another account now (next-update.ts), so no answer of it counts,
   * a Confirm of the question's own message included.
   */
  over?: (u: FlowContext, asked: SentMessage, moved?: boolean) => Promise<boolean>;
}

/** Back (when there is a step to go back to) and Cancel on a row of their own (no empty row is sent). */
function withCancel(s: FlowScope, kb: InlineKeyboard, back: boolean): InlineKeyboard {
  if (kb.inline_keyboard.at(-1)?.length) kb.row();
  if (back) kb.text(s.t("common-back"), CB.back.data);
  return kb.text(s.t("common-cancel"), CB.cancel.data);
}

/** Takes the buttons off a question message that is no longer the one being asked. */
async function strip(u: FlowContext, msg: SentMessage): Promise<void> {
  await u.api
    .editMessageReplyMarkup(msg.chat.id, msg.message_id, { reply_markup: new InlineKeyboard() })
    .catch(() => {});
}

/**
 * Asks `q` until it gives an answer; Cancel, a confirmed Leave or idleness end the flow instead,
 * and Back throws `GoBack`. Only one message of the question has buttons at a time: when it is
 * sent again (a reason, a hint), the earlier one loses them, so retries never pile up buttons; a
 * restated question is edited in place and adds no message at all.
 */
export async function askUntil<R>(s: FlowScope, q: Question<R>): Promise<R> {
  // Fixed when the question is first asked: a step runner may change `nav` for the next one.
  const back = s.nav.back;
  s.nav.asked += 1;
  const keyboard = () => withCancel(s, q.buttons(), back);
  let msg: SentMessage = await s.ctx.reply(q.text, { reply_markup: keyboard() });
  // What `msg` says now, and whether the loop has sent a message below it since (`restate`).
  let shown = q.text;
  let buried = false;
  // The buttons go; a reason put on top by `restate` goes with them (it pointed at the buttons).
  const retire = (u: FlowContext) =>
    shown === q.text
      ? strip(u, msg)
      : u.api
          .editMessageText(msg.chat.id, msg.message_id, q.text, {
            reply_markup: new InlineKeyboard(),
          })
          .catch(() => {});
  const resend = async (u: FlowContext, text: string) => {
    await retire(u);
    msg = await u.reply(text, { reply_markup: keyboard() });
    shown = text;
    buried = false;
  };
  const restate = async (u: FlowContext, text: string) => {
    if (buried) return resend(u, text);
    // The same text again: Telegram would refuse the edit ("message is not modified").
    if (text === shown) return;
    try {
      await u.api.editMessageText(msg.chat.id, msg.message_id, text, { reply_markup: keyboard() });
    } catch (err) {
      // Gone (deleted by the user) or not editable: the question is sent again instead.
      if (!isNotModified(err)) return resend(u, text);
    }
    shown = text;
  };
  const reshow = (u: FlowContext) => resend(u, q.text);
  for (;;) {
    const over = q.over;
    const u = await nextUpdate(
      s,
      reshow,
      () => {
        buried = true;
      },
      over && ((v, moved) => over(v, msg, moved)),
      retire,
    );
    const send = (text: string) => resend(u, text);
    let outcome: Outcome<R>;
    if (u.callbackQuery) {
      const data = await ownCallback(s, u, msg, () => send(q.text), q.anywhere);
      if (data === null) continue;
      if (back && CB.back.is(data)) {
        await u.answerCallbackQuery();
        await retire(u);
        throw new GoBack();
      }
      outcome = q.onButton(data, u);
      const toast = outcome.kind === "stay" ? outcome.toast : undefined;
      const answered = u.answerCallbackQuery(toast === undefined ? undefined : { text: toast });
      if (outcome.kind === "done" && q.answerLater) {
        // Marked handled here: the caller awaits it later, not before this turn ends.
        answered.catch(() => {});
        q.answerLater(answered);
        return outcome.value;
      }
      await answered;
    } else {
      outcome = q.onMessage(u);
    }
    if (outcome.kind === "done") return outcome.value;
    if (outcome.kind === "resend") await send(outcome.text);
    if (outcome.kind === "restate") await restate(u, outcome.text);
    if (outcome.kind === "edit") await u.editMessageReplyMarkup({ reply_markup: keyboard() });
  }
}

/**
 * The data of a button on `prompt`, or null after answering a stale one. A button on a message
 * NEWER than the question being asked means the chat is ahead of this conversation: a process
 * died after sending the next question and before saving that it had (the update that caused it
 * is not delivered again). Then the question is shown again (`reshow`), so the user is not left
 * tapping a button that can never work.
 */
async function ownCallback(
  s: FlowScope,
  u: FlowContext,
  prompt: SentMessage,
  reshow: () => Promise<void>,
  anywhere?: (data: string) => boolean,
): Promise<string | null> {
  const cb = u.callbackQuery;
  if (!cb) return null;
  if (typeof cb.data === "string" && anywhere?.(cb.data)) return cb.data;
  if (cb.message?.message_id !== prompt.message_id || typeof cb.data !== "string") {
    await u.answerCallbackQuery({ text: s.t("common-button-expired") });
    if ((cb.message?.message_id ?? 0) > prompt.message_id) await reshow();
    return null;
  }
  return cb.data;
}
