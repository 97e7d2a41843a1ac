import { Api } from "grammy";
import {
  type RunningEmulator,
  startBotApiEmulatorServer,
} from "../../dev/playground/emulator/index.ts";
import { formatRupees } from "../../src/money.ts";
import {
  type NotifierOptions,
  createNotifier as productNotifier,
  type Render,
} from "../../src/notify/index.ts";
import type { OrderStatus } from "../../src/orders/model.ts";
import type { OrdersProvider } from "../../src/orders/service.ts";
import { boundedRetry, DEFAULT_BOT_API_POLICY } from "../../src/telegram/api.ts";

/** A provider for notifier tests that never reach the aggregator: every execute is unknown. */
export const noProvider: OrdersProvider = {
  async execute(req) {
    return { kind: "unknown", referenceNo: req.referenceNo, reason: "timeout", detail: "" };
  },
  async statusByReference() {
    throw new Error("unused");
  },
};

/** The Bot API emulator over HTTP and the notifier's Bot API client pointed at it. */
export async function notifierEmulator(
  token: string,
  opts: Omit<Parameters<typeof createNotifierApi>[1], "apiRoot">,
): Promise<{ em: RunningEmulator; api: Api }> {
  const em = await startBotApiEmulatorServer();
  return { em, api: createNotifierApi(token, { ...opts, apiRoot: em.apiRoot }) };
}

export interface NotifierApiOptions {
  /** Bot API root (the emulator's URL in the playground); Telegram's by default. */
  apiRoot?: string;
  /** Retries of one call after a 429 / 5xx / network error. Default 2 (3 attempts). */
  maxRetryAttempts?: number;
  /** A 429 asking for a longer wait than this is not waited out but handed to the notifier. Default 5. */
  maxDelaySeconds?: number;
  /** One attempt is aborted after this long. Default 5 s. */
  timeoutMs?: number;
}

/**
 * A grammY Api for the notifier whose calls are bounded (src/telegram/api.ts), so one flood
 * wait or a dead network cannot stall the worker past its send lock; the notifier pauses itself
 * for longer waits. The product passes the bot's own bot.api, which has the same policy; tests and
 * the bench build this one (moved here from src/notify/api.ts: production never used it).
 */
export function createNotifierApi(token: string, opts: NotifierApiOptions = {}): Api {
  const api = new Api(token, opts.apiRoot ? { apiRoot: opts.apiRoot } : undefined);
  api.config.use(
    boundedRetry({
      attempts: (opts.maxRetryAttempts ?? DEFAULT_BOT_API_POLICY.attempts - 1) + 1,
      maxDelayMs: (opts.maxDelaySeconds ?? DEFAULT_BOT_API_POLICY.maxDelayMs / 1000) * 1000,
      timeoutMs: opts.timeoutMs ?? DEFAULT_BOT_API_POLICY.timeoutMs,
    }),
  );
  return api;
}

const STATUS_TEXT: Record<OrderStatus, string> = {
  placed: "Processing",
  submitting: "Processing",
  unknown: "Processing (confirming with the operator)",
  // Worded alike: a move between them is not sent (RECEIPT_RANK in orders/model.ts).
  queued: "With the operator",
  pending: "With the operator",
  success: "Successful",
  failed: "Failed",
};

/**
 * Plain English words for a notification (moved from src/notify/render.ts: production renders with
 * the bot's Fluent bundles, src/bot/notification-render.ts). Tests that do not care about the words use it.
 */
export const englishRender: Render = (n, order) => {
  const lines: string[] = [];
  if (n.kind === "admin_alert") {
    const minutes = Math.max(0, Math.floor((n.at - order.createdAt) / 60_000));
    lines.push(
      `Attention: order ${order.reference} is still ${order.status} after ${minutes} min.`,
    );
    lines.push(`User ${order.userId}, ${order.category}`);
  } else if (n.status === "success") {
    lines.push("Recharge successful");
  } else if (n.status === "failed") {
    lines.push("Recharge failed");
  } else {
    lines.push("Recharge in progress");
  }
  lines.push(`Reference: ${order.reference}`);
  lines.push(`Operator: ${order.operatorName}`);
  lines.push(`Number: ${order.connectionNo}`);
  const d = order.details;
  if ("packageName" in d && d.packageName) lines.push(`Package: ${d.packageName}`);
  lines.push(`Amount: ${formatRupees(order.amountPaisa, order.region)}`);
  lines.push(`Status: ${STATUS_TEXT[n.kind === "status" ? n.status : order.status]}`);
  if (n.kind === "status" && n.status === "failed") {
    lines.push(`Reason: ${order.providerMessage ?? "The operator did not complete the recharge."}`);
  }
  if (n.kind === "status" && n.status === "success" && order.transactionId) {
    lines.push(`Transaction: ${order.transactionId}`);
  }
  if (n.kind === "admin_alert" && n.note) lines.push(`Note: ${n.note}`);
  return { text: lines.join("\n") };
};

/** The product's notifier, rendering in plain English unless a test passes its own render. */
export function createNotifier(opts: Omit<NotifierOptions, "render"> & { render?: Render }) {
  return productNotifier({ render: englishRender, ...opts });
}
