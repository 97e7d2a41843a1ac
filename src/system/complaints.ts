import type { I18n } from "@grammyjs/i18n";
import { complaintChangeText, complaintReasonText } from "../../conversations/index.ts";
import type { Accounts } from "../accounts/index.ts";
import type { BotContext } from "../bot/context.ts";
import { formatOrderTime } from "../bot/format.ts";
import { DEFAULT_LOCALE, isLocale, translator } from "../bot/i18n.ts";
import {
  BBPS_DISPOSITION,
  type Complaint,
  type ComplaintChange,
  createComplaints,
} from "../complaints/index.ts";
import type { Order } from "../orders/model.ts";
import type { Base } from "./base.ts";
import type { Stores } from "./stores.ts";

type Send = (chatId: number, text: string) => Promise<void>;

/**
 * Complaints (issue 30): the service over the process's complaint store and books, telling the
 * customer of every change in their language (through the chat's sender, as the back office's
 * reversals are told), and the admins of every new complaint.
 */
export function wireComplaints(
  base: Base,
  parts: {
    stores: Stores;
    orders: { get(reference: string): Promise<Order | null> };
    accounts: Accounts;
    i18n: I18n<BotContext>;
    send: Send;
    adminIds: readonly number[];
  },
) {
  return createComplaints({
    store: parts.stores.complaints,
    orders: parts.orders,
    ledger: parts.stores.ledger,
    logger: base.logger.child({ part: "complaints" }),
    now: base.now,
    tell: complaintTeller(parts),
    // A refunded order is not reminded of (its plan was paid back).
    refunded: async (c) => {
      await parts.stores.reminders.dropOrder(c.userId, c.orderReference);
    },
  });
}

function complaintTeller(parts: {
  accounts: Accounts;
  i18n: I18n<BotContext>;
  send: Send;
  adminIds: readonly number[];
}) {
  const localeOf = async (userId: number) => {
    const kept = await parts.accounts.localeOf(userId).catch(() => null);
    return isLocale(kept) ? kept : DEFAULT_LOCALE;
  };
  return async (c: Complaint, change: ComplaintChange, extra: { balancePaisa?: number }) => {
    if (change === "raised") {
      for (const admin of parts.adminIds) {
        const t = translator(parts.i18n, await localeOf(admin));
        await parts.send(admin, newComplaintText(t, c)).catch(() => undefined); // one admin's blocked chat does not keep the others from hearing
      }
      return;
    }
    const t = translator(parts.i18n, isLocale(c.locale) ? c.locale : DEFAULT_LOCALE);
    const text = complaintChangeText(t, c, extra);
    if (text) await parts.send(c.chatId, text);
  };
}

function newComplaintText(t: ReturnType<typeof translator>, c: Complaint): string {
  return t("complaints-new-admin", {
    ref: c.reference,
    order: c.orderReference,
    reason: complaintReasonText(t, c.reason),
    code: BBPS_DISPOSITION[c.reason],
    user: String(c.userId),
    due: formatOrderTime(c.dueAt, "np", t.locale),
  });
}
