import { InlineKeyboard } from "grammy";
import { type DocumentFonts, documentFonts } from "../documents/fonts.ts";
import { type DocumentSpec, renderPdf } from "../documents/pdf.ts";
import { isFinal, type Order } from "../orders/model.ts";
import { shareReceiptButton } from "./callback-data.ts";
import type { Translate } from "./i18n.ts";
import { type BookedRefund, failedReasonLine, receiptText } from "./order-texts.ts";

/**
 * The receipt a customer can keep and forward (issue 30): the chat receipt's own lines
 * (receiptText: one layout for every category, the account's identity, fee and discount only when
 * not zero, total, balance after, reference, transaction id, the time in the order's zone with its
 * name and, in Nepali, the Bikram Sambat date) set as a PDF, so what the chat said and what the
 * document says cannot differ.
 */

export interface ChatDocument {
  filename: string;
  bytes: Uint8Array;
  caption: string;
}

/**
 * The receipt's document, before rendering: its title is the receipt's first line. A failed
 * order's receipt says the money returned (or never taken); the document adds why, as its push
 * said (review s32-receipts 1). A refunded order's says the complaint's refund (`refund`).
 */
export function receiptDocumentSpec(
  t: Translate,
  order: Order,
  refund?: BookedRefund,
): DocumentSpec {
  const [title = "", ...lines] = receiptText(t, order, refund).split("\n");
  const why = order.status === "failed" ? [failedReasonLine(t, order)] : [];
  return {
    title,
    lines: [...lines, ...why],
    footer: t("receipt-doc-footer"),
    at: order.updatedAt ?? order.createdAt,
    lang: t.locale,
  };
}

export async function receiptDocument(
  t: Translate,
  order: Order,
  fonts: DocumentFonts = documentFonts(),
  refund?: BookedRefund,
): Promise<ChatDocument> {
  return {
    filename: `receipt-${order.reference}.pdf`,
    bytes: await renderPdf(receiptDocumentSpec(t, order, refund), fonts),
    caption: t("receipt-doc-caption", { ref: order.reference }),
  };
}

/** Whether an order's receipt can be shared: final (a receipt that still changes is not kept). */
export const canShareReceipt = (order: Order): boolean => isFinal(order.status);

/** The "Share receipt" button of an order. */
export function shareReceiptKeyboard(t: Translate, order: Order): InlineKeyboard {
  return new InlineKeyboard().text(t("receipt-share"), shareReceiptButton.build(order.reference));
}

/**
 * A success push's keyboard with "Share receipt" as a row of its own below what it had (the
 * notifier's onSuccess hook gives "Save as…" or nothing).
 */
export function withShareReceipt(
  t: Translate,
  order: Order,
  markup: { inline_keyboard: InlineKeyboard["inline_keyboard"] } | undefined,
): InlineKeyboard {
  const rows = markup?.inline_keyboard ?? [];
  return new InlineKeyboard([
    ...rows.map((r) => [...r]),
    ...shareReceiptKeyboard(t, order).inline_keyboard,
  ]);
}
