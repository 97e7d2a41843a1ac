import type { I18n } from "@grammyjs/i18n";
import type { Render } from "../notify/render.ts";
import { isFinal } from "../orders/model.ts";
import type { BotContext } from "./context.ts";
import { DEFAULT_LOCALE, translator } from "./i18n.ts";
import { contradictedAlertText, finalText, receiptText, stuckAlertText } from "./order-texts.ts";

/**
 * Notification texts in the order's language: the receipt shows the status it reached; a final
 * outcome also comes as a new message (so the phone buzzes). Admin alerts are in English, the
 * admins' working language here.
 */
export function notificationRender(i18n: I18n<BotContext>): Render {
  return (n, order) => {
    if (n.kind === "admin_alert") {
      const t = translator(i18n, DEFAULT_LOCALE);
      const text = n.contradicted
        ? contradictedAlertText(t, order, n.contradicted, n.word, n.refund)
        : stuckAlertText(t, order, n.at);
      return { text, locale: t.locale };
    }
    const t = translator(i18n, order.locale);
    const shown = { ...order, status: n.status };
    const receipt = receiptText(t, shown);
    return isFinal(n.status)
      ? { text: finalText(t, shown), receiptText: receipt, locale: t.locale }
      : { text: receipt, locale: t.locale };
  };
}
