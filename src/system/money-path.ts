import {
  createBooks,
  createBooksCheck,
  createCollisionAlert,
  createFiguresOffAlert,
  createFloatWatch,
  createHourlyAlertsFlush,
} from "../books/index.ts";
import { orderPartsOf } from "../categories/index.ts";
import { orderRefundOf } from "../complaints/index.ts";
import { createProviderWatch } from "../http/provider-watch.ts";
import { createOrders, createReconciler } from "../orders/index.ts";
import { createProviderClient, type ProviderClient } from "../provider/index.ts";

import { createWebhookRoutes } from "../webhook/routes.ts";
import type { Base } from "./base.ts";
import type { HttpApp } from "./server.ts";
import type { Stores } from "./stores.ts";

/** What an answer of the aggregator says of the wallet (the float watch reads it). */
type WalletReading = Parameters<ReturnType<typeof createFloatWatch>>[0];

/**
 * The money path below the chat: the provider client, the orders service, the provider's webhook
 * receiver (mounted on the app) and the reconciler. `target` is the provider to call: the real
 * one from the configuration, or the embedded sandbox in local mode.
 */
export function wireMoneyPath(
  base: Base,
  parts: {
    app: HttpApp;
    stores: Stores;
    target: { baseUrl: string | undefined; token: string };
    adminIds: readonly number[];
  },
) {
  const { config, logger, now, metrics } = base;
  const { baseUrl, token } = parts.target;
  // loadConfig guarantees one of them: PROVIDER_URL, or no PROVIDER_URL and so the embedded sandbox.
  if (!baseUrl) throw new Error("no provider: PROVIDER_URL unset and no embedded sandbox");
  const provider = createProviderClient({
    baseUrl,
    token,
    lookupTimeoutMs: config.provider.lookupTimeoutMs,
    executeTimeoutMs: config.provider.executeTimeoutMs,
    maxRetries: config.provider.maxRetries,
    paths: config.provider.paths,
    timestampUtcOffsetMinutes: config.provider.utcOffsetMinutes,
    logger,
  });
  base.stops.add(() => provider.close());
  const { providerWatch, onWalletReading } = watchWallet(base, provider, parts);
  const orders = createOrders({
    categories: orderPartsOf(base.categories),
    onWalletReading,
    onFiguresOff: createFiguresOffAlert({
      crossings: parts.stores.crossings,
      adminChatIds: [...parts.adminIds],
      logger,
    }),
    onAdminNote: createCollisionAlert({
      crossings: parts.stores.crossings,
      adminChatIds: [...parts.adminIds],
      logger,
    }),
    store: parts.stores.store,
    pricing: config.pricing.schedule,
    accessMode: config.accessMode,
    inrToNprRateE4: config.pricing.inrToNprRateE4,
    provider,
    // Half the grace covers a late mark, the other half an execute arriving late (reconciler.ts).
    sendWindowMs: Math.floor(config.reconciler.notFoundGraceMs / 2),
    settleAfterMs: config.reconciler.settleAfterMs,
    adminPeople: config.adminPeople,
    adminChatIds: [...parts.adminIds],
    // A contradiction's alert tells a complaint refund already booked (review s33-rvcomp 5).
    refundOf: (reference) => orderRefundOf(parts.stores.complaints, reference),
    settleEnabled: config.reconciler.settleEnabled,
    logger,
    now,
    metrics,
  });
  const webhook = createWebhookRoutes({
    secret: config.webhook.secret,
    keyMode: config.webhook.keyMode,
    maxBodyBytes: config.webhook.maxBodyBytes,
    confirmFinal: config.webhook.confirmFinalWithStatusQuery,
    timestampUtcOffsetMinutes: config.provider.utcOffsetMinutes,
    orders,
    provider,
    logger,
    now,
    metrics,
  });
  parts.app.route(config.webhook.path, webhook);
  base.webhookPosts.add(config.webhook.path);
  const reconciler = createReconciler({
    orders,
    provider,
    lease: parts.stores.lease,
    logger,
    now,
    intervalMs: config.reconciler.intervalMs,
    minAgeMs: config.reconciler.minAgeMs,
    maxAgeMs: config.reconciler.maxAgeMs,
    notFoundGraceMs: config.reconciler.notFoundGraceMs,
    notFoundAnswers: config.reconciler.notFoundAnswers,
    notFoundWindowMs: config.reconciler.notFoundWindowMs,
    executeTimeoutMs: config.provider.executeTimeoutMs,
    adminChatIds: [...parts.adminIds],
    metrics,
    // The orders counted in an hourly alert's window are told once its hour ended (session 28).
    // First, the orders marked owed an hourly count (figures off, a reference collision) that no
    // process counted (a crash).
    eachTick: createHourlyAlertsFlush({
      crossings: parts.stores.crossings,
      adminChatIds: [...parts.adminIds],
      logger,
      orders: parts.stores.store,
    }),
  });
  const { books, booksCheck } = wireBooks(base, provider, parts);
  return { provider, providerWatch, orders, webhook, reconciler, books, booksCheck };
}

/**
 * What the aggregator says of the merchant's wallet in its answers: recorded for readiness and
 * the float gauge (system/operations.ts), and watched for the low-float alert.
 */
function watchWallet(
  base: Base,
  provider: ProviderClient,
  parts: { stores: Stores; adminIds: readonly number[] },
) {
  const { config, logger, now } = base;
  const observeFloat = createFloatWatch({
    thresholdPaisa: config.books.lowFloatAlertPaisa,
    adminChatIds: [...parts.adminIds],
    crossings: parts.stores.crossings,
    walletBalance: () => provider.walletBalance(),
    logger,
  });
  const providerWatch = createProviderWatch({ walletBalance: () => provider.walletBalance(), now });
  const onWalletReading = (r: WalletReading) => {
    if (r.creditAvailablePaisa !== undefined) providerWatch.record(r.creditAvailablePaisa);
    return observeFloat(r);
  };
  return { providerWatch, onWalletReading };
}

/** The admin's books (/books, the metrics listener) and their scheduled check against the aggregator. */
function wireBooks(
  base: Base,
  provider: ProviderClient,
  parts: { stores: Stores; adminIds: readonly number[] },
) {
  const { config, logger, now } = base;
  const books = createBooks(
    {
      ledger: parts.stores.ledger,
      orders: parts.stores.store,
      walletBalance: () => provider.walletBalance(),
      crossings: parts.stores.crossings,
      now,
      logger,
    },
    {
      tolerancePaisa: config.books.driftTolerancePaisa,
      lowFloatPaisa: config.books.lowFloatAlertPaisa,
    },
  );
  const booksCheck = createBooksCheck({
    books,
    lease: parts.stores.lease,
    intervalMs: config.books.checkIntervalMs,
    adminChatIds: [...parts.adminIds],
    logger,
  });
  return { books, booksCheck };
}
