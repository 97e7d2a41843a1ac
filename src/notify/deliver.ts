import type { InlineKeyboardMarkup } from "grammy/types";
import { isFinal, type Notification, type Order, RECEIPT_RANK } from "../orders/model.ts";
import { withAccount } from "../telegram/call-account.ts";
import type { Words } from "../telegram/words.ts";
import type { FinalButtons, NotifierOrders } from "./options.ts";
import { PushSettled } from "./push-settled.ts";
import type { Delivery, NotificationQueue } from "./queue.ts";
import type { ReceiptEdit } from "./receipt-lane.ts";
import { booksAlertText, type ComplaintNotice, type Render, type RenderNotice } from "./render.ts";
import type { SentLog } from "./sent-log.ts";

/**
 * What one notification becomes in the chat: a push (a NEW message: final outcome, admin alert),
 * a receipt edit, both, or nothing (chat gone, order overtaken). No sending here: the push is
 * handed in (push.ts), the edits are collected for the receipt edit lane (receipt-edits.ts).
 */

/** The notifier's sendMessage: at most once per call (see push.ts). */
export type Push = (
  chatId: number,
  text: string,
  /** The buttons under it, asked only once the push will be sent (their making has side effects). */
  markup: (() => Promise<InlineKeyboardMarkup | undefined>) | undefined,
  /** The order has a receipt in this chat that the delivery edits to the same outcome. */
  receipt: boolean,
  /** The words' language, and the same words in another (telegram/words.ts); absent: not said. */
  words?: Words,
) => Promise<void>;

/**
 * Delivers one notification. `push` undefined: a redelivered final whose push went out; only its
 * receipt edit is made again. Receipt edits are appended to `later`. "undelivered": not sent, and
 * not to be dropped unseen (a complaint's notice to an inactive chat): the caller dead-letters it.
 */
export type Deliver = (
  n: Notification,
  later: ReceiptEdit[],
  push: Push | undefined,
  written?: Delivery["written"],
) => Promise<"sent" | "dropped" | "undelivered">;

/** Why a push to an inactive chat was not sent (its timeline row; a notice's dead letter). */
export const INACTIVE_CHAT =
  "not delivered: the chat is marked inactive (it blocked the bot or could not be reached)";

/** A chat that placed an order this long ago counts as active (the queue remembers one as long). */
const ACTIVE_MS = 60_000;

/** An order read this long ago is still current enough to render (the receipt lane's freshMs). */
const FRESH_MS = 100;

export interface DeliverDeps {
  queue: NotificationQueue;
  orders: NotifierOrders;
  render: Render;
  renderNotice: RenderNotice | undefined;
  finalButtons: FinalButtons | undefined;
  /** Whether the chat's messages can be edited (NotifierOptions.editsReceipts). */
  editsReceipts: (chatId: number) => boolean;
  /** Where each push of an order is written down (the back office's timeline); none: not kept. */
  sentLog: SentLog | undefined;
  now: () => number;
}

/** The receipt edit to hand to the lane once the delivery is through (none without a receipt). */
function editReceipt(
  later: ReceiptEdit[],
  order: Order,
  status: Order["status"],
  text: string,
  readAt: number,
): void {
  if (order.receiptMessageId === undefined) return;
  const { chatId, receiptMessageId: messageId, reference } = order;
  later.push({ chatId, messageId, reference, status, text, readAt });
}

export function createDeliver(deps: DeliverDeps): Deliver {
  const { queue, render, now } = deps;
  /** A push, written down with its outcome (a settled one, sent by someone else, is not). */
  const record = (n: Notification, ok: boolean, err?: unknown) =>
    n.reference === undefined
      ? undefined
      : deps.sentLog
          ?.add(n.reference, {
            at: now(),
            chatId: n.chatId,
            kind: "push",
            // A complaint's notice is listed on its order's timeline by the change it told.
            status: n.kind === "complaint" ? `complaint ${n.status}` : n.status,
            ok,
            ...(err === undefined
              ? {}
              : { error: String((err as Error)?.message ?? err).slice(0, 300) }),
          })
          .catch(() => undefined);
  const logged = async (n: Notification, send: () => Promise<void>) => {
    const write = (ok: boolean, err?: unknown) => record(n, ok, err);
    try {
      await send();
    } catch (err) {
      if (!(err instanceof PushSettled)) await write(false, err);
      throw err;
    }
    await write(true);
    // Accepted: a mark of the chat as inactive is wrong (free unless this process wrote one).
    await queue.chatReached(n.chatId).catch(() => undefined);
  };
  /** The order's receipt, when its chat can edit it. */
  const hasReceipt = (order: Order) =>
    order.receiptMessageId !== undefined && deps.editsReceipts(order.chatId);

  /**
   * The order to render: the one the entry carries when it was written at most FRESH_MS ago (as
   * good as a read; with clocks more than that apart, or an older entry, the order is read).
   */
  const orderOf = async (
    reference: string,
    written: Delivery["written"],
  ): Promise<{ order: Order | null; readAt: number }> => {
    const t = now();
    if (written && written.order.reference === reference && Math.abs(t - written.at) <= FRESH_MS)
      return { order: written.order, readAt: Math.min(t, written.at) };
    return { order: await deps.orders.get(reference), readAt: t };
  };

  /**
   * The chat placed this order (tapped Confirm) within the last ACTIVE_MS: it is as active as the
   * queue's "found active" memory says a chat is for that long, so the look at the inactive set
   * is not made (one command per order). Known from the order the entry carries.
   */
  const orderedLately = (n: Notification, written: Delivery["written"]): boolean =>
    n.kind === "status" &&
    written !== undefined &&
    written.order.reference === n.reference &&
    written.order.chatId === n.chatId &&
    Math.abs(now() - written.order.createdAt) <= ACTIVE_MS;

  /** A complaint's notice: a push with no receipt and no buttons, sent once like a final one. */
  const notice = async (
    n: ComplaintNotice,
    push: Push | undefined,
  ): Promise<"sent" | "dropped"> => {
    if (!deps.renderNotice) throw new Error("no words for a complaint's notice (renderNotice)");
    const words = await deps.renderNotice(n);
    if (!words) return "dropped";
    if (push) {
      const { locale } = words;
      // Whose notice it is: a released WhatsApp chat may act as another account (chat-calls.ts).
      await logged(n, () =>
        withAccount(words.userId, () =>
          push(n.chatId, words.text, undefined, false, { locale, in: words.in }),
        ),
      );
    }
    return "sent";
  };

  return async (n, later, push, written) => {
    if (!orderedLately(n, written) && (await queue.isChatInactive(n.chatId))) {
      // An order's result not sent (review s31-notify, 1): on its timeline as not delivered, so
      // that support sees why the customer heard nothing (intermediate edits are not listed).
      if (n.kind === "status" && isFinal(n.status)) await record(n, false, INACTIVE_CHAT);
      if (n.kind !== "complaint") return "dropped";
      // The admin read "the notice is on its way" (review s24-h, 4): written on the order's
      // timeline as not delivered, and dead-lettered (replayable once the customer is back).
      await record(n, false, INACTIVE_CHAT);
      return "undelivered";
    }
    if (n.kind === "complaint") return notice(n, push);
    if (n.kind === "admin_alert" && n.topic) {
      // The books' alerts are about the merchant's money, not one order: their own text.
      await push?.(n.chatId, booksAlertText(n), undefined, false, { locale: "en" });
      return "sent";
    }
    if (n.reference === undefined) return "dropped";
    // What the order was when written counts as a read at that time: the receipt lane re-reads
    // an intermediate status whose text is older than its freshMs before it edits.
    const { order, readAt } = await orderOf(n.reference, written);
    if (!order) return "dropped";
    // A prepaid receipt's "balance after" is on the order (balanceAfterPaisa, recorded when its
    // money moved), never read now: a late push must not show later movements.
    const { text, receiptText = text, locale } = render(n, order);
    if (n.kind === "admin_alert") {
      // The admins' alerts are in one language whatever the order's: said, not rendered again.
      await push?.(n.chatId, text, undefined, false, locale ? { locale } : undefined);
      return "sent";
    }
    if (!isFinal(n.status)) {
      // Overtaken by a later state the receipt words differently: that one's notification shows
      // it. A later status the receipt words alike (queued -> pending) has none: this edit shows it.
      if (RECEIPT_RANK[order.status] > RECEIPT_RANK[n.status]) return "dropped";
      if (!hasReceipt(order)) return "dropped";
      editReceipt(later, order, n.status, receiptText, readAt);
      return "sent";
    }
    if (push) {
      const { finalButtons } = deps;
      const outcome = n.status === "success" ? "success" : "failed";
      const markup = finalButtons ? () => finalButtons(order, outcome) : undefined;
      const receipt = hasReceipt(order) && order.chatId === n.chatId;
      // The same push in another language is the order rendered with that locale.
      const words = locale
        ? { locale, in: (l: string) => render(n, { ...order, locale: l }).text }
        : undefined;
      // Whose result it is: a released WhatsApp chat may act as another account now (chat-calls.ts).
      await logged(n, () =>
        withAccount(order.userId, () => push(n.chatId, text, markup, receipt, words)),
      );
    }
    if (hasReceipt(order)) editReceipt(later, order, n.status, receiptText, readAt);
    return "sent";
  };
}
