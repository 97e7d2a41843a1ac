import { InlineKeyboard } from "grammy";
import type { Message } from "grammy/types";
import {
  flowButtons as CB,
  historyPageButton,
  isGlobalCallback,
  languageButton,
  leaveButton,
} from "../callback-data.ts";
import type { BotContext, FlowContext, FlowConversation } from "../context.ts";
import { finishWithUpdate } from "../deferred.ts";
import { type BotDeps, roleOf } from "../deps.ts";
import { isNotModified } from "../error-boundary.ts";
import { balanceText, fetchBalance } from "../features/balance.ts";
import { helpOptions, helpText } from "../features/help.ts";
import { HISTORY_SIZE, renderHistory } from "../features/history.ts";
import { keepLocale, languageKeyboard } from "../features/language.ts";
import type { Locale, Translate } from "../i18n.ts";
import { idleText } from "../idle.ts";
import { nicknameLabel } from "../saved.ts";

/**
 * The one wait-for-an-answer loop every question of a flow runs on: send the question, wait for
 * the next update of the chat, leave on idle or Cancel, answer /help, /history, /balance and
 * /language in place (the question stays answerable), ask "Leave this order?" before another
 * command or a menu button ends the flow, answer buttons of older messages as "no longer active",
 * and hand the rest to the question. Questions only say what an answer means; how a chat is
 * waited on is written here once.
 */

/** What a flow's widgets work with: its conversation, the context it started with, deps, language. */
export interface FlowScope {
  readonly conversation: FlowConversation;
  readonly ctx: FlowContext;
  readonly deps: BotDeps;
  /** In the flow's current language (it follows a /language choice made mid-flow). */
  readonly t: Translate;
  /** Switches the flow's language: what is asked from now on, and the order's. */
  readonly setLocale: (locale: Locale) => void;
  /** Where the flow stands among its steps (steps.ts): whether Back is offered, questions asked. */
  readonly nav: Nav;
}

export interface Nav {
  /** The conversation's id when it is a menu entry: the idle notice's Start again enters it. */
  flow?: string;
  /** Questions offer Back (there is an earlier step to go back to). */
  back: boolean;
  /** How many questions were asked so far: a step that asked none is skipped by Back. */
  asked: number;
}

/** Thrown by a question whose Back was pressed; the step runner (steps.ts) catches it. */
export class GoBack extends Error {
  constructor() {
    super("back");
    this.name = "GoBack";
  }
}

/** Callback data of the toolkit's own buttons, built and parsed by the one codec. */
export { CB };

function isCommand(u: FlowContext): boolean {
  return /^\/[A-Za-z]/.test(u.message?.text ?? "");
}

/** Commands answered without leaving the flow: they only show something. */
const INFORMATIONAL = ["help", "history", "balance", "language"] as const;
type Informational = (typeof INFORMATIONAL)[number];

function commandName(u: FlowContext): string | null {
  return /^\/([A-Za-z0-9_]+)(@\w+)?(\s|$)/.exec(u.message?.text ?? "")?.[1] ?? null;
}

function isCancel(u: FlowContext): boolean {
  if (CB.cancel.is(u.callbackQuery?.data)) return true;
  return /^\/cancel(@\w+)?(\s|$)/i.test(u.message?.text ?? "");
}

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
}

/** Back (when there is a step to go back to) and Cancel on a row of their own (no empty row is sent). */
function withCancel(s: FlowScope, kb: InlineKeyboard, back: boolean): InlineKeyboard {
  if (kb.inline_keyboard.at(-1)?.length) kb.row();
  if (back) kb.text(s.t("common-back"), CB.back.data);
  return kb.text(s.t("common-cancel"), CB.cancel.data);
}

/** Takes the buttons off a question message that is no longer the one being asked. */
async function strip(u: FlowContext, msg: Message): Promise<void> {
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
  let msg: Message = await s.ctx.reply(q.text, { reply_markup: keyboard() });
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
    const u = await next(s, reshow, () => {
      buried = true;
    });
    const send = (text: string) => resend(u, text);
    let outcome: Outcome<R>;
    if (u.callbackQuery) {
      const data = await ownCallback(s, u, msg, () => send(q.text));
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
 * What the idle notice of a flow's arms says, as its arms last wrote it (idle.ts), and when. Per
 * run of the conversation: rebuilt on every replay from what the arms' externals returned.
 */
const infoWritten = new WeakMap<object, { said: string; at: number }>();
/** Past this age the notice's info is written again (it is kept a day past its deadline). */
const INFO_REWRITE_MS = 12 * 3600 * 1000;

/**
 * The next update of this chat meant for the question, after the idle and cancel checks; what
 * the chat does meanwhile (an informational command, a language button, "Leave this order?" and
 * its answers) is handled here, and the question keeps waiting. `reshow` sends the question again
 * (after Keep, so it is the last thing in the chat); `sent` is told when a message went out below
 * the question (an informational answer, the Leave question).
 */
async function next(
  s: FlowScope,
  reshow: (u: FlowContext) => Promise<void>,
  sent: () => void,
): Promise<FlowContext> {
  const { conversation, deps, t } = s;
  const { idle } = deps;
  const chatId = s.ctx.chat?.id ?? 0;
  for (;;) {
    // The notice is sent when the time runs out (idle.ts), not when the user next writes.
    // The arm is named by its deadline, drawn with the arm inside external, so a replay disarms
    // with the same one. The clock is read in the same external as the arm (and the disarm below):
    // every step of a flow is replayed on each later update, and each recorded op costs on every
    // replay. What the notice says is written only when this flow has not written it yet, it
    // changed (a language switch) or it is half a day old: decided inside the external and
    // returned, so a replay keeps the same record of it.
    const { before, armedAt, wrote } = idle
      ? await conversation.external(async (outer: BotContext) => {
          const at = Date.now();
          const info = { locale: t.locale, ...(s.nav.flow ? { flow: s.nav.flow } : {}) };
          const said = JSON.stringify(info);
          const last = infoWritten.get(conversation);
          const fresh = last !== undefined && last.said === said && at - last.at < INFO_REWRITE_MS;
          const deadline = at + deps.settings.idleMs;
          // Written while the conversation state is saved; the update waits for both (deferred.ts).
          await finishWithUpdate(outer, idle.arm(chatId, deadline, fresh ? undefined : info));
          return { before: at, armedAt: deadline, wrote: fresh ? undefined : said };
        })
      : { before: await conversation.now(), armedAt: undefined, wrote: undefined };
    if (wrote !== undefined) infoWritten.set(conversation, { said: wrote, at: before });
    const u = await conversation.wait();
    // Whoever removes the deadline first decides: a notice already sent ends the flow too.
    const { after, pending } = idle
      ? await conversation.external(async () => {
          const at = Date.now();
          return { after: at, pending: await idle.disarm(chatId, armedAt) };
        })
      : { after: await conversation.now(), pending: true };
    if (!pending || after - before > deps.settings.idleMs) {
      // A command or a menu button (Start again among them) runs as if no flow had been running,
      // and answers its own button press.
      const passOn = (isCommand(u) && !isCancel(u)) || isGlobalCallback(u.callbackQuery?.data);
      if (u.callbackQuery && !passOn) await u.answerCallbackQuery();
      if (pending) await u.reply(idleText(t, deps.settings.idleMs));
      await conversation.halt({ next: passOn });
    }
    if (isCancel(u)) {
      if (u.callbackQuery) await u.answerCallbackQuery();
      await u.reply(t("common-cancelled"));
      await conversation.halt();
    }
    const data = u.callbackQuery?.data;
    // Leave: the flow ends here and the leave feature runs what the button carries.
    if (leaveButton.parse(data) !== null) await conversation.halt({ next: true });
    if (CB.keep.is(data)) {
      await u.answerCallbackQuery();
      // The Leave question's buttons go (a second tap of a Keep already used changes nothing),
      // and the question is asked again below it.
      await u.editMessageReplyMarkup({ reply_markup: new InlineKeyboard() }).catch(() => {});
      await reshow(u);
      continue;
    }
    // /history's Prev / Next (the list may have been asked for mid-flow): turn the page in place.
    const page = historyPageButton.parse(data);
    if (page !== null) {
      await u.answerCallbackQuery();
      const [text, other] = historyMessage(await historyPage(s, u.from?.id ?? 0, page));
      await u.editMessageText(text, other);
      continue;
    }
    const locale = languageButton.parse(data);
    if (locale !== null) {
      await switchLanguage(s, u, locale);
      continue;
    }
    const command = commandName(u);
    if (command !== null && (INFORMATIONAL as readonly string[]).includes(command)) {
      await answerInformational(s, u, command as Informational);
      sent();
      continue;
    }
    const target = leaveTarget(u);
    if (target !== null) {
      if (u.callbackQuery) await u.answerCallbackQuery();
      const kb = new InlineKeyboard()
        .text(t("flow-keep"), CB.keep.data)
        .text(t("flow-leave"), leaveButton.build(target));
      await u.reply(t("flow-leave-question"), { reply_markup: kb });
      sent();
      continue;
    }
    return u;
  }
}

/**
 * What a command or a menu button would start, as the Leave button carries it: the command's text
 * (only its first word when the whole does not fit on a button) or the button's data; null for
 * anything else.
 */
function leaveTarget(u: FlowContext): string | null {
  const data = u.callbackQuery?.data;
  if (isGlobalCallback(data)) return data ?? null;
  if (!isCommand(u)) return null;
  const text = (u.message?.text ?? "").trim();
  for (const candidate of [text, text.split(/\s/)[0] ?? ""]) {
    if (leaveButton.fits(candidate)) return candidate;
  }
  return null;
}

/** One page of /history, read through `external`: a replay sees the list the user saw. */
async function historyPage(s: FlowScope, userId: number, page: number) {
  const found = await s.conversation.external(() =>
    s.deps.orders.listByUser(userId, HISTORY_SIZE + 1, page * HISTORY_SIZE),
  );
  // Saved nicknames name the numbers, as outside a flow.
  const saved = await s.conversation.external(() => s.deps.saved?.list(userId) ?? []);
  return renderHistory(
    s.t,
    s.t.locale,
    { orders: found.slice(0, HISTORY_SIZE), page, hasNext: found.length > HISTORY_SIZE },
    nicknameLabel(saved),
  );
}

function historyMessage(r: { text: string; keyboard?: InlineKeyboard }) {
  return [r.text, r.keyboard ? { reply_markup: r.keyboard } : {}] as const;
}

/** /help, /history, /balance or /language answered as outside a flow, in the flow's language. */
async function answerInformational(
  s: FlowScope,
  u: FlowContext,
  command: Informational,
): Promise<void> {
  const { conversation, deps, t } = s;
  const userId = u.from?.id ?? 0;
  switch (command) {
    case "help":
      await u.reply(helpText(t, roleOf(deps.settings, userId), helpOptions(deps)));
      return;
    case "history": {
      await u.reply(...historyMessage(await historyPage(s, userId, 0)));
      return;
    }
    case "balance": {
      const result = await conversation.external(() => fetchBalance(deps, userId));
      await u.reply(balanceText(t, result));
      return;
    }
    case "language":
      await u.reply(t("language-prompt"), { reply_markup: languageKeyboard(deps) });
      return;
  }
}

/** A language button pressed mid-flow: kept for the chat, and the flow goes on in it. */
async function switchLanguage(s: FlowScope, u: FlowContext, locale: Locale): Promise<void> {
  await u.answerCallbackQuery();
  await s.conversation.external((outer: BotContext) => keepLocale(s.deps, outer, locale));
  s.setLocale(locale);
  await u.editMessageText(s.t("language-set"));
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
  prompt: Message,
  reshow: () => Promise<void>,
): Promise<string | null> {
  const cb = u.callbackQuery;
  if (!cb) return null;
  if (cb.message?.message_id !== prompt.message_id || typeof cb.data !== "string") {
    await u.answerCallbackQuery({ text: s.t("common-button-expired") });
    if ((cb.message?.message_id ?? 0) > prompt.message_id) await reshow();
    return null;
  }
  return cb.data;
}
