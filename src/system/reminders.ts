import type { Api } from "grammy";
import type { InlineKeyboardMarkup } from "grammy/types";
import { reminderMessage } from "../../conversations/index.ts";
import type { Accounts } from "../accounts/index.ts";
import type { BotDeps, BotReminders } from "../bot/deps.ts";
import { translator } from "../bot/i18n.ts";
import { createSendPacer } from "../notify/index.ts";
import { createReminderWorker, type ReminderStore, upcoming } from "../reminders/index.ts";
import type { Base } from "./base.ts";
import type { Stores } from "./stores.ts";

/** /reminders' view of the store: what is coming at this moment, and turning them off or on. */
export function remindersPort(store: ReminderStore, now: () => number): BotReminders {
  return {
    async list(userId) {
      const state = await store.read(userId);
      return { upcoming: upcoming(state, now()), allOff: state.allOff };
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
  return createReminderWorker({
    store: parts.stores.reminders,
    localeOf: (userId) => parts.accounts.localeOf(userId),
    render: (locale, due) => reminderMessage(translator(parts.deps.i18n, locale), due),
    send: async (chatId, message) => {
      await pacer.acquire(chatId, { kind: "edit" });
      await parts.bot.api.sendMessage(chatId, message.text, {
        reply_markup: message.replyMarkup as InlineKeyboardMarkup,
      });
    },
    // The blocked list is read at each reminder, as at each access check.
    mayRemind: async (userId) => !(await parts.stores.blocked.isBlocked(userId)),
    now,
    intervalMs: config.reminders.intervalMs,
    logger,
  });
}
