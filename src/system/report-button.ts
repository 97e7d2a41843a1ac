import { InlineKeyboard } from "grammy";
import { reportProblemRow } from "../../conversations/index.ts";
import type { BotDeps } from "../bot/deps.ts";
import { translator } from "../bot/i18n.ts";
import type { Order } from "../orders/model.ts";

/**
 * "Report a problem" under a success push (issue 30, complaints): appended as its own row to
 * whatever the push already offers ("Save as…"), when complaints are offered.
 */
export function withReportButton(
  deps: Pick<BotDeps, "complaints" | "i18n">,
  order: Order,
  markup: InlineKeyboard | undefined,
): InlineKeyboard | undefined {
  if (!deps.complaints) return markup;
  const t = translator(deps.i18n, order.locale);
  return reportProblemRow(t, order.reference, markup ?? new InlineKeyboard());
}
