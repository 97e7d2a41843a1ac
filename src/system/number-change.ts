import type { I18n } from "@grammyjs/i18n";
import { type Accounts, formatPhone, type NumberChanges, type Phone } from "../accounts/index.ts";
import { noteToAdmins, noteToCustomer } from "../books/admin-note.ts";
import type { Crossings } from "../books/crossing.ts";
import type { BotContext } from "../bot/context.ts";
import { DEFAULT_LOCALE, isLocale, translator } from "../bot/i18n.ts";
import { account } from "../ledger/index.ts";
import { chatIdOfWaId } from "../whatsapp/chat-ids.ts";
import type { Base } from "./base.ts";

/**
 * A WhatsApp customer changed number (Meta's signed `user_changed_number` notice): the chats and
 * accounts key on the phone, so the new number's chat is another account. Linking it to the old
 * account automatically would touch the phone registry, the Meta user id checks, links and holds
 * (docs/whatsapp.md, "A changed number"); instead the change is recorded for the back office's
 * "Number changes" page, where an admin moves the balance (one `move` transfer), and, when the old
 * account has money, the admins are alerted and the customer is told on the new number that
 * support will move it. Both messages are queued in the notifier's outbox in the step that marks
 * the notice told (books/crossing.ts), once per notice, retried by the notifier.
 */
export function numberChangeNotice(
  base: Pick<Base, "config" | "now" | "logger">,
  parts: {
    accounts: Pick<Accounts, "userByPhone" | "localeOf" | "balanceOf">;
    numberChanges: NumberChanges;
    crossings: Crossings;
    adminIds: readonly number[];
    i18n: I18n<BotContext>;
  },
) {
  // The back office's page of number changes, as the admins' alert links it.
  const pageUrl = `${base.config.http.publicUrl ?? ""}/dashboard/number-changes`;
  return async (c: { wamid: string; oldPhone: Phone; newPhone: Phone }): Promise<void> => {
    const at = base.now();
    await parts.numberChanges.record({ ...c, at });
    const owner = await parts.accounts.userByPhone(c.oldPhone);
    const newChat = chatIdOfWaId(c.newPhone);
    if (owner === null || newChat === null) return;
    const balance = await parts.accounts.balanceOf(account.customer(owner));
    // Nothing in the old account: nothing to move, nobody to promise anything.
    if (balance.postedPaisa <= 0) return;
    const [old, now] = [formatPhone(c.oldPhone), formatPhone(c.newPhone)];
    const en = translator(parts.i18n, DEFAULT_LOCALE);
    const note = en("wa-number-changed-admin", {
      old,
      new: now,
      account: String(owner),
      link: pageUrl,
    });
    const kept = await parts.accounts.localeOf(owner);
    const theirs = translator(parts.i18n, isLocale(kept) ? kept : DEFAULT_LOCALE);
    const told = theirs("wa-number-changed", { old });
    await parts.crossings.record(`numchange:${c.wamid}`, true, [
      ...noteToAdmins(parts.adminIds, at, note),
      noteToCustomer(newChat, at, told),
    ]);
    base.logger.info({ account: owner, toChatId: newChat }, "whatsapp number change recorded");
  };
}
