import { InlineKeyboard } from "grammy";
import { isWhatsAppChat, pushChatOf } from "../../whatsapp/chat-ids.ts";
import { answeringOf } from "../../whatsapp/held.ts";
import { flowButtons as CB, isGlobalCallback, leaveButton } from "../callback-data.ts";
import type { BotContext, FlowContext } from "../context.ts";
import { finishWithUpdate } from "../deferred.ts";
import { idleText } from "../idle.ts";
import { sayOnLeave } from "../leave.ts";
import { TYPED_WORDS } from "../typed-words.ts";
import type { FlowScope } from "./scope.ts";

/**
 * How a waiting question gets its next update: the idle deadline armed and disarmed around the
 * wait, Cancel, "Leave this order?" and its answers, and the asides (/help and the like) answered
 * in place; only what is left reaches the question (prompt-loop.ts).
 */

function isCommand(u: FlowContext): boolean {
  return /^\/[A-Za-z]/.test(u.message?.text ?? "");
}

function commandName(u: FlowContext): string | null {
  return /^\/([A-Za-z0-9_]+)(@\w+)?(\s|$)/.exec(u.message?.text ?? "")?.[1] ?? null;
}

function isCancel(u: FlowContext): boolean {
  if (CB.cancel.is(u.callbackQuery?.data)) return true;
  return /^\/cancel(@\w+)?(\s|$)/i.test(u.message?.text ?? "");
}

/**
 * What the idle notice of a flow's arms says, as its arms last wrote it (idle.ts), and when. Per
 * run of the conversation: rebuilt on every replay from what the arms' externals returned.
 */
const infoWritten = new WeakMap<object, { said: string; at: number }>();
/** Past this age the notice's info is written again (it is kept a day past its deadline). */
const INFO_REWRITE_MS = 12 * 3600 * 1000;

/**
 * A question WhatsApp's rate limit holds (its answer owed, whatsapp/router-owed.ts) has not reached
 * the customer: time in the hold is not their idleness (left s33, 2). Its deadline is a day off
 * (an owed answer is given up after a day); once the owed answers went out the deadline is moved
 * to the idle time from then (IdleDeadlines.postpone, the owed answers' worker).
 */
const HELD_IDLE_MS = 86_400_000;
const answerHeld = (chatId: number) => answeringOf(chatId)?.behind === true;

/**
 * Arms the chat's idle deadline before a wait; returns when (`before`) and the arm's name.
 *
 * The notice is sent when the time runs out (idle.ts), not when the user next writes. The arm is
 * named by its deadline, drawn with the arm inside external, so a replay disarms with the same
 * one. The clock is read in the same external as the arm (and the disarm): every step of a flow
 * is replayed on each later update, and each recorded op costs on every replay. What the notice
 * says is written only when this flow has not written it yet, it changed (a language switch) or
 * it is half a day old: decided inside the external, and whether it wrote returned, so a replay
 * keeps the same record of it. What it says is worked out before the external, from the flow's
 * own state (its locale, flow and words, the chat and the account: the same on every replay), so
 * the external returns no copy of it: every external's value stays in the stored conversation
 * until the flow ends (issue 31 target 6: 44 of its bytes, deflated, at a mobile top-up's amount
 * question).
 */
async function armIdle(s: FlowScope, chatId: number) {
  const { conversation, deps, t } = s;
  const to = pushChatOf(chatId, s.userId);
  const info = {
    locale: t.locale,
    ...(to !== chatId ? { to } : isWhatsAppChat(chatId) ? { account: s.userId } : {}),
    ...(s.nav.flow ? { flow: s.nav.flow } : {}),
    ...(s.words.again ? { again: s.words.again } : {}),
    ...(s.words.ended ? { ended: s.words.ended } : {}),
  };
  const said = JSON.stringify(info);
  const { before, armedAt, wrote } = await conversation.external(async (outer: BotContext) => {
    const at = Date.now();
    const last = infoWritten.get(conversation);
    const fresh = last !== undefined && last.said === said && at - last.at < INFO_REWRITE_MS;
    const deadline = at + (answerHeld(chatId) ? HELD_IDLE_MS : deps.settings.idleMs);
    // Written while the conversation state is saved; the update waits for both (deferred.ts).
    await finishWithUpdate(outer, deps.idle.arm(chatId, deadline, fresh ? undefined : info));
    return fresh ? { before: at, armedAt: deadline } : { before: at, armedAt: deadline, wrote: 1 };
  });
  if (wrote !== undefined) infoWritten.set(conversation, { said, at: before });
  return { before, armedAt };
}

/** Disarms after the wait; `pending` is false when the idle notice already went out. */
function disarmIdle(s: FlowScope, chatId: number, armedAt: number) {
  return s.conversation.external(async () => {
    const at = Date.now();
    return { after: at, pending: await s.deps.idle.disarm(chatId, armedAt) };
  });
}

/**
 * The next update of this chat meant for the question, after the idle and cancel checks; what
 * the chat does meanwhile (an aside, "Leave this order?" and its answers) is handled here, and
 * the question keeps waiting. `reshow` sends the question again (after Keep, so it is the last
 * thing in the chat); `sent` is told when a message went out below the question (an aside's
 * answer, the Leave question); `over`, when it says so, ends the flow before the update is
 * answered otherwise; `retire` takes the question's buttons off when Cancel ends the flow.
 */
export async function nextUpdate(
  s: FlowScope,
  reshow: (u: FlowContext) => Promise<void>,
  sent: () => void,
  over?: (u: FlowContext, moved?: boolean) => Promise<boolean>,
  retire?: (u: FlowContext) => Promise<unknown>,
): Promise<FlowContext> {
  const { conversation, deps, t } = s;
  const chatId = s.ctx.chat?.id ?? 0;
  for (;;) {
    const { armedAt } = await armIdle(s, chatId);
    const u = await conversation.wait();
    // Whoever removes the deadline first decides: a notice already sent ends the flow too.
    const { after, pending } = await disarmIdle(s, chatId, armedAt);
    // Past its own deadline (the sweeper late): over too. A held question's deadline is its own.
    if (!pending || after > armedAt) {
      // The notice went out already: the flow is over, and this update is answered as if no flow
      // had been running (/cancel: "nothing to cancel", a contact registers, a stale button says
      // so), never with silence. Else the notice is this update's answer; a command or a menu
      // button (Start again among them) still runs, and answers its own button press.
      const passOn =
        !pending || (isCommand(u) && !isCancel(u)) || isGlobalCallback(u.callbackQuery?.data);
      if (u.callbackQuery && !passOn) await u.answerCallbackQuery();
      if (pending) {
        await u.reply(idleText(t, deps.settings.idleMs, s.words.again, s.words.ended));
      }
      await conversation.halt({ next: passOn });
    }
    if ((u.from?.id ?? 0) !== s.userId) await otherAccount(s, chatId, u, over);
    // The question no longer stands (the question's `over`, which told the chat why): the flow
    // ends before anything else answers, Cancel included ("cancelled" would be untrue); a command
    // or a menu button still runs, as after the idle notice.
    if (over && (await over(u))) {
      const passOn = (isCommand(u) && !isCancel(u)) || isGlobalCallback(u.callbackQuery?.data);
      if (u.callbackQuery && !passOn) await u.answerCallbackQuery();
      await conversation.halt({ next: passOn });
    }
    if (isCancel(u)) {
      if (u.callbackQuery) await u.answerCallbackQuery();
      // No "✅ Confirm" is left under a cancelled confirmation (a tap there would do nothing).
      await retire?.(u);
      const wa = isWhatsAppChat(chatId) ? s.words.cancelledWhatsApp : undefined;
      await u.reply(t(wa ?? s.words.cancelled, TYPED_WORDS));
      await conversation.halt();
    }
    if (await handledMeanwhile(s, u, reshow, sent)) continue;
    return u;
  }
}

/**
 * Another account acts in this chat than the one the flow started for: the flow is not theirs
 * and ends before anything of it runs, money above all (a command still runs, as theirs).
 * - A WhatsApp chat may be read by the number's next holder (released from the account): nothing
 *   of the old account is said, not even that its order was placed (`flow-other-account`).
 * - A Telegram chat is its Telegram user's, always: the same person linked it to another account
 *   (or unlinked it) meanwhile, and is told so (`flow-other-account-linked`). A question that no
 *   longer stands says so first (`over`, asked as for any update: the confirmation's order placed
 *   by a turn whose save was lost answers "placed already", never "ended"). Either way nothing is
 *   placed: the place is behind this, and a placed order is only looked up.
 */
async function otherAccount(
  s: FlowScope,
  chatId: number,
  u: FlowContext,
  over: ((u: FlowContext, moved?: boolean) => Promise<boolean>) | undefined,
): Promise<never> {
  const passOn = (isCommand(u) && !isCancel(u)) || isGlobalCallback(u.callbackQuery?.data);
  const sameUser = !isWhatsAppChat(chatId);
  const said = sameUser && over !== undefined && (await over(u, true));
  if (u.callbackQuery && !passOn) await u.answerCallbackQuery();
  if (!said) await u.reply(s.t(sameUser ? "flow-other-account-linked" : "flow-other-account"));
  return s.conversation.halt({ next: passOn });
}

/** What the chat did meanwhile, handled (true) or not the flow's business (false). */
async function handledMeanwhile(
  s: FlowScope,
  u: FlowContext,
  reshow: (u: FlowContext) => Promise<void>,
  sent: () => void,
): Promise<boolean> {
  const { conversation, t } = s;
  const data = u.callbackQuery?.data;
  // Leave: the flow ends here and the leave feature runs what the button carries, saying this
  // flow's own words when "nothing was charged" would not be true. Always marked: a press no
  // flow marked came after its flow ended (leave.ts), where no such words are true.
  if (leaveButton.parse(data) !== null) {
    const ended = s.words.ended ?? "flow-left";
    await conversation.external((outer) => sayOnLeave(outer.update, ended));
    await conversation.halt({ next: true });
  }
  if (CB.keep.is(data)) {
    await u.answerCallbackQuery();
    // The Leave question's buttons go (a second tap of a Keep already used changes nothing),
    // and the question is asked again below it.
    await u.editMessageReplyMarkup({ reply_markup: new InlineKeyboard() }).catch(() => {});
    await reshow(u);
    return true;
  }
  // A button of an aside's answer (/history's Prev / Next, a language): handled in place.
  if (data !== undefined) {
    for (const aside of s.asides) if (await aside.onButton?.(s, u, data)) return true;
  }
  if (u.message && !isCommand(u)) {
    for (const a of s.asides) {
      if (!(await a.onMessage?.(s, u))) continue;
      sent();
      return true;
    }
  }
  const command = commandName(u);
  const aside = command === null ? undefined : s.asides.find((a) => a.commands.includes(command));
  if (aside && command !== null) {
    await aside.answer(s, u, command);
    sent();
    return true;
  }
  const target = leaveTarget(u);
  if (target !== null) {
    if (u.callbackQuery) await u.answerCallbackQuery();
    const kb = new InlineKeyboard()
      .text(t("flow-keep"), CB.keep.data)
      .text(t("flow-leave"), leaveButton.build(target));
    await u.reply(t(s.words.leaveQuestion), { reply_markup: kb });
    sent();
    return true;
  }
  return false;
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
