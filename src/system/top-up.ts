import type { I18n } from "@grammyjs/i18n";
import {
  topUpNoticeMarkup,
  topUpNoticeText,
  unreadableNoticeText,
} from "../../conversations/index.ts";
import type { BotContext } from "../bot/context.ts";
import { rupeesToPaisa } from "../money.ts";
import { classifyApiError, isUndeliverable } from "../notify/api-errors.ts";
import {
  createKhaltiGateway,
  createTopUpReconciler,
  createTopUps,
  type TopUpNotice,
  topUpReturnRoutes,
} from "../payments/index.ts";
import { withAccount } from "../telegram/call-account.ts";
import type { Base } from "./base.ts";
import type { ChatSend } from "./bot.ts";
import type { HttpApp } from "./server.ts";
import type { Stores } from "./stores.ts";
import { topUpRefusedAlert } from "./topup-refused.ts";

/** Where Khalti's payer comes back to, on the public server. */
export const TOPUP_RETURN_PATH = "/pay/khalti/return";

/**
 * Adding money online: the Khalti gateway (the real one from KHALTI_BASE_URL, or the local
 * stand-in), the top-up service, its return page on the public app and its reconciler.
 * Undefined when no gateway is configured and local mode offers none: /addmoney then says so.
 * `send` delivers a chat message (the bot's API, bound once the bot exists).
 */
export function wireTopUps(
  base: Base,
  parts: {
    app: HttpApp;
    stores: Stores;
    selfUrl: string;
    standIn: { baseUrl: string; secretKey: string } | undefined;
    adminIds: readonly number[];
    i18n: I18n<BotContext>;
    send: ChatSend;
  },
) {
  const { config, logger, now } = base;
  const c = config.topUp;
  const target = c.khalti ?? parts.standIn;
  if (!target) {
    // Said once at start, so nobody wonders why /addmoney is not offered.
    logger.info(
      "adding money online is off: KHALTI_BASE_URL is unset (the Khalti stand-in serves local mode only)",
    );
    return undefined;
  }
  const gateway = createKhaltiGateway({
    baseUrl: target.baseUrl,
    secretKey: target.secretKey,
    timeoutMs: c.timeoutMs,
    logger,
    now,
  });
  base.stops.add(() => gateway.close());
  // The real gateway needs a public URL (loadConfig insists); the stand-in's payer is on this host.
  const publicUrl = c.publicUrl ?? parts.selfUrl;
  const topUps = createTopUps({
    store: parts.stores.topUps,
    gateway,
    ledger: parts.stores.ledger,
    // A customer's notice names its account: a released WhatsApp chat may act as another now.
    notify: (n: TopUpNotice) =>
      withAccount(n.audience === "customer" ? n.topUp.userId : undefined, () =>
        parts.send(n.chatId, topUpNoticeText(parts.i18n, n), topUpNoticeMarkup(parts.i18n, n)),
      ),
    notifyUnreadable: (n) => parts.send(n.chatId, unreadableNoticeText(n)),
    // As the notifier reads a failed send: a chat that blocked the bot is not pushed to again.
    undeliverable: (err) => isUndeliverable(classifyApiError(err)),
    initiateRefused: topUpRefusedAlert(parts.stores.crossings, parts.adminIds),
    logger,
    now,
    maxPaisa: rupeesToPaisa(c.maxRupees),
    dailyCapPaisa: rupeesToPaisa(c.dailyCapRupees),
    returnUrl: `${publicUrl}${TOPUP_RETURN_PATH}`,
    websiteUrl: publicUrl,
    adminChatIds: parts.adminIds,
    lookupEveryMs: c.lookupIntervalMs,
    refundWatchMs: c.refundWatchMs,
    refundCheckEveryMs: c.refundCheckMs,
  });
  parts.app.route(TOPUP_RETURN_PATH, topUpReturnRoutes({ topUps, logger }));
  const reconciler = createTopUpReconciler({ topUps, intervalMs: c.lookupIntervalMs, logger });
  return { topUps, reconciler, gateway };
}
