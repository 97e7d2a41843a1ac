import { type Api, HttpError } from "grammy";
import type { InlineKeyboardMarkup } from "grammy/types";
import { reminderMessage, reminderTemplateText } from "../../conversations/index.ts";
import type { Accounts } from "../accounts/index.ts";
import type { BotDeps, BotReminders } from "../bot/deps.ts";
import { translator } from "../bot/i18n.ts";
import { classifyApiError, sentNothing } from "../notify/api-errors.ts";
import { createSendPacer } from "../notify/index.ts";
import { createReminderWorker, type ReminderStore, upcoming } from "../reminders/index.ts";
import { mayHaveArrived, sendOnceSignal } from "../telegram/api.ts";
import { withAccount } from "../telegram/call-account.ts";
import { withWords } from "../telegram/words.ts";
import { isRouterRefusal } from "../whatsapp/chat-calls.ts";
import type { Base } from "./base.ts";
import type { Stores } from "./stores.ts";

/** /reminders' view of the store: what is coming at this moment, and turning them off or on. */
export function remindersPort(store: ReminderStore, now: () => number): BotReminders {
  return {
    async list(userId) {
      const state = await store.read(userId);
      const stopped = [...state.off].flatMap((id) => state.records.get(id)?.number ?? []);
      return { upcoming: upcoming(state, now()), allOff: state.allOff, stopped };
    },
    setOff: (userId, which, off) => store.setOff(userId, which, off, now()),
  };
}

/**
 * The reminder worker: the customers' messages in their language (their chosen one, else the
 * order's), sent through the bot's API (WhatsApp chats through its router, which sends the
 * template outside the 24-hour window) after a slot from the shared pacer, behind the pushes (an
 * "edit" slot: an order's outcome never waits for a reminder).
 */
export function wireReminders(
  base: Base,
  parts: {
    stores: Stores;
    bot: { api: Pick<Api, "sendMessage"> };
    deps: BotDeps;
    accounts: Accounts;
  },
) {
  const { logger, now, config } = base;
  const pacer = createSendPacer({ store: parts.stores.paceStore, now });
  // Sent at most once: an answer lost is not sent blindly again (the customer would read it twice).
  const once = sendOnceSignal();
  return createReminderWorker({
    store: parts.stores.reminders,
    localeOf: (userId) => parts.accounts.localeOf(userId),
    render: (locale, due) => {
      const t = (l: string) => translator(parts.deps.i18n, l);
      return {
        ...reminderMessage(t(locale), due),
        // Outside WhatsApp's window the template goes, without buttons: its words say "reply".
        words: {
          locale,
          in: (l) => reminderMessage(t(l), due).text,
          template: (l) => reminderTemplateText(t(l), due),
        },
      };
    },
    send: async (chatId, message, userId) => {
      await pacer.acquire(chatId, { kind: "edit" });
      // Whose reminder it is: a released WhatsApp chat may act as another account (chat-calls.ts).
      await withAccount(userId, () =>
        withWords(message.words, () =>
          parts.bot.api.sendMessage(
            chatId,
            message.text,
            { reply_markup: message.replyMarkup as InlineKeyboardMarkup },
            once,
          ),
        ),
      );
    },
    sentNothing: reminderSentNothing,
    // The blocked list is read at each reminder, as at each access check.
    mayRemind: async (userId) => !(await parts.stores.blocked.isBlocked(userId)),
    now,
    intervalMs: config.reminders.intervalMs,
    logger,
  });
}

/**
 * A reminder's send that certainly sent nothing, tried again later: the WhatsApp router's "Not
 * sent" (a template refused, a rate hold), a connection never made, a 429 beyond the client's wait.
 * A refusal of the message or the chat (4xx) would be refused again; a lost answer may have arrived.
 */
export function reminderSentNothing(err: unknown): boolean {
  const failure = classifyApiError(err);
  if (sentNothing(failure) || failure.code === 429) return true;
  // The WhatsApp router's refusals (chat-calls.ts `REFUSALS`) are final: a reminder for an account
  // its chat no longer acts as goes to the account's own chat instead, so one refused has nowhere
  // to go, and trying it every few hours would never end (review s24-k, 3; s25-a, S1).
  if (failure.code === 400 && isRouterRefusal(failure.description)) return false;
  return failure.code === undefined && err instanceof HttpError && !mayHaveArrived(err);
}
