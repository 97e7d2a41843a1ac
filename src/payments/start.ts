import { randomBytes } from "node:crypto";
import { TOPUP_MIN_PAISA, usedToday } from "./caps.ts";
import type { TopUpContext } from "./context.ts";
import { GatewayError, type PaymentGateway } from "./gateway/port.ts";
import type { TopUp } from "./model.ts";
import type { StartResult } from "./types.ts";

export interface StartInput {
  userId: number;
  chatId: number;
  locale: string;
  amountPaisa: number;
  /** An order's confirmation waits for this top-up: its credited notice offers Continue. */
  resume?: boolean;
}

/** A new top-up: checked against the caps, a checkout at the gateway, stored as "initiated". */
export async function startTopUp(ctx: TopUpContext, input: StartInput): Promise<StartResult> {
  const { opts, gateway, store, logger } = ctx;
  const { amountPaisa } = input;
  if (amountPaisa < TOPUP_MIN_PAISA)
    return { ok: false, reason: "below", limitPaisa: TOPUP_MIN_PAISA };
  if (amountPaisa > opts.maxPaisa) return { ok: false, reason: "above", limitPaisa: opts.maxPaisa };
  const remaining = opts.dailyCapPaisa - (await usedToday(ctx, input.userId));
  if (amountPaisa > remaining)
    return { ok: false, reason: "daily_cap", remainingPaisa: Math.max(0, remaining) };
  const id = `TU${randomBytes(10).toString("hex")}`;
  let checkout: Awaited<ReturnType<PaymentGateway["initiate"]>>;
  try {
    checkout = await gateway.initiate({
      amountPaisa,
      purchaseOrderId: id,
      purchaseOrderName: "Balance top-up",
      returnUrl: opts.returnUrl,
      websiteUrl: opts.websiteUrl,
    });
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    if (err.transient) {
      logger.warn({ kind: err.kind, detail: err.detail }, "top-up initiate failed");
      return { ok: false, reason: "unavailable" };
    }
    // Before, this was "try again in a few minutes" for ever, with a warn line only (review
    // s31-pay, 5): a wrong key or a field Khalti rejects needs the admins.
    logger.error({ kind: err.kind, detail: err.detail }, "top-up initiate refused by the gateway");
    await told(ctx, { kind: err.kind, detail: err.detail });
    return { ok: false, reason: "refused" };
  }
  const at = ctx.now();
  await told(ctx, null);
  const topUp: TopUp = {
    id,
    gateway: gateway.name,
    paymentId: checkout.paymentId,
    paymentUrl: checkout.paymentUrl,
    userId: input.userId,
    chatId: input.chatId,
    locale: input.locale,
    amountPaisa,
    ...(input.resume ? { resume: true } : {}),
    status: "initiated",
    createdAt: at,
    updatedAt: at,
    expiresAt: checkout.expiresAt,
    version: 0,
  };
  await store.create(topUp, at + opts.lookupEveryMs);
  logger.info({ topUp: id, paymentId: topUp.paymentId, amountPaisa }, "top-up initiated");
  return { ok: true, topUp };
}

/**
 * Hands a refusal (or a checkout started: null, which ends the spell) to `initiateRefused`; its
 * failure (Redis) is logged and does not fail the customer's start.
 */
async function told(ctx: TopUpContext, refusal: { kind: string; detail: string } | null) {
  try {
    await ctx.opts.initiateRefused?.(refusal, ctx.now());
  } catch (err) {
    ctx.logger.warn({ err: String(err), refused: refusal !== null }, "top-up refusal alert failed");
  }
}
