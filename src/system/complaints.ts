import type { I18n } from "@grammyjs/i18n";
import { complaintChangeText, complaintReasonText } from "../../conversations/index.ts";
import type { BotContext } from "../bot/context.ts";
import { formatOrderTime } from "../bot/format.ts";
import { DEFAULT_LOCALE, isLocale, translator } from "../bot/i18n.ts";
import {
  BBPS_DISPOSITION,
  type Complaint,
  type ComplaintStore,
  createComplaints,
  isClosed,
} from "../complaints/index.ts";
import type { RenderNotice } from "../notify/render.ts";
import type { Order } from "../orders/model.ts";
import type { Base } from "./base.ts";
import type { Stores } from "./stores.ts";

/**
 * Complaints (issue 30): the service over the process's complaint store and books. A new
 * complaint's alert to each admin and the customer's notices of a change are queued in the
 * notifier's outbox with the write; the notifier words them with complaintNotice (below, wired in
 * bot.ts) and sends each once.
 */
export function wireComplaints(
  base: Base,
  parts: {
    stores: Stores;
    orders: { get(reference: string): Promise<Order | null> };
    adminIds: readonly number[];
  },
) {
  return createComplaints({
    store: parts.stores.complaints,
    orders: parts.orders,
    logger: base.logger.child({ part: "complaints" }),
    now: base.now,
    admins: parts.adminIds,
    // An order refunded whole is not reminded of (its plan was paid back); the service calls
    // this only for a whole refund (a partial one leaves the plan running). A duplicate's refund
    // leaves it too: the other payment bought the plan (review s33-rvcomp 2).
    refunded: async (c) => {
      if (c.reason === "duplicate") return;
      await parts.stores.reminders.dropOrder(c.userId, c.orderReference);
    },
  });
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

/**
 * The words of a customer's complaint notice, for the notifier: the complaint read now, shown at
 * the status the notice tells (a later change has a notice of its own), in the customer's language
 * (the one they raised it in), with the balance the refund left as the notice carries it. A
 * "taken" notice of a complaint closed since is not sent (null: dropped): retried after a failed
 * send, it would reach the chat after "resolved" and say "being looked into" (review s24-h, 1).
 * A closing notice is never overtaken: a complaint closes once. A "raised" alert is an admin's
 * (its chat), in the admin's language, sent whatever the complaint's status now: it tells that
 * the complaint was raised.
 */
export function complaintNotice(
  i18n: I18n<BotContext>,
  complaints: Pick<ComplaintStore, "get">,
  localeOf: (userId: number) => Promise<string | null>,
): RenderNotice {
  return async (n) => {
    const c = await complaints.get(n.complaint);
    if (!c) return null;
    if (n.status === "raised") return raisedAlert(i18n, c, n.chatId, localeOf);
    if (n.status === "taken" && isClosed(c.status)) return null;
    const shown = { ...c, status: n.status };
    const extra = n.balancePaisa === undefined ? {} : { balancePaisa: n.balancePaisa };
    const words = (l: string) => complaintChangeText(translator(i18n, l), shown, extra) ?? "";
    const locale = isLocale(c.locale) ? c.locale : DEFAULT_LOCALE;
    return { text: words(locale), locale, in: words, userId: c.userId };
  };
}

/** A new complaint's alert to one admin, in the admin's language (the default if none is kept). */
async function raisedAlert(
  i18n: I18n<BotContext>,
  c: Complaint,
  admin: number,
  localeOf: (userId: number) => Promise<string | null>,
): ReturnType<RenderNotice> {
  const kept = await localeOf(admin).catch(() => null);
  const locale = isLocale(kept) ? kept : DEFAULT_LOCALE;
  const words = (l: string) => newComplaintText(translator(i18n, l), c);
  return { text: words(locale), locale, in: words };
}
