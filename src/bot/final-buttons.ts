import { InlineKeyboard } from "grammy";
import { chargedPaisa, type Order } from "../orders/model.ts";
import { addMoneyButtonData, menuButton, repeatButton } from "./callback-data.ts";
import type { BotDeps } from "./deps.ts";
import type { Translate } from "./i18n.ts";

/**
 * The next step under a failure push, as buttons (issue 30, no dead ends): Try again starts the
 * same order again with its answers (the repeat flow, through its confirmation), Change number
 * starts the order's category afresh, and Add money is offered when the balance cannot pay for
 * the same order again and a gateway is wired (the top-up flow).
 */
export async function failureButtons(
  deps: Pick<BotDeps, "payment" | "topUps">,
  t: Translate,
  order: Order,
): Promise<InlineKeyboard> {
  const kb = new InlineKeyboard().text(t("push-try-again"), repeatButton.build(order.reference));
  if (menuButton.fits(order.category))
    kb.text(t("push-change-number"), menuButton.build(order.category));
  if (deps.payment.mode === "prepaid" && deps.topUps) {
    const balance = await deps.payment.availablePaisa(order.userId);
    if (balance < chargedPaisa(order)) kb.row().text(t("topup-button"), addMoneyButtonData.data);
  }
  return kb;
}
