import { Hono } from "hono";
import type { Registry } from "prom-client";
import type { Logger } from "../logger.ts";
import { createMoneyPathMetrics, type MoneyPathMetrics } from "../orders/metrics.ts";
import type { Orders, OrdersProvider } from "../orders/service.ts";
import { applyWebhookEvent } from "./apply.ts";
import { decryptionKey, type KeyMode, signatureVerifier } from "./codec.ts";
import { createConfirmations } from "./confirm.ts";
import { decodeWebhook } from "./decode.ts";
import { readCapped, TooLarge } from "./read-body.ts";

export { envelopeData } from "./decode.ts";

/**
 * The provider's webhook (spec 6): GET connection check, POST encrypted event.
 *
 * POST, in this order: size limit (413, checked on Content-Length and while reading), X-Signature
 * in constant time BEFORE any decryption, JSON envelope, Base64/IV/AES-256-CBC, zod payload. Every
 * failure after the size check gets the SAME answer, status and body (400 REJECTED_BODY), whether it
 * was the signature, the Base64, the length, the padding, the JSON or a field: no oracle of any
 * kind, no stack trace, never a 5xx for bad input. (401 is kept for the GET check, as spec 6.1 wants.)
 * Metrics and logs keep the same discipline: "signature" or "invalid", nothing finer after the
 * signature. A body over the limit is read and discarded (up to DISCARD_LIMIT_BYTES) before the 413,
 * so a sender still writing gets the answer rather than a reset connection.
 *
 * A valid event is acknowledged fast: recorded through orders.apply (an unknown order is recorded
 * for an admin and acknowledged, so the provider does not retry forever), then 200. Because the
 * signature covers only the secret, a claim of a FINAL status is confirmed with a status query by
 * reference before it is applied (confirmFinal, default on); that query runs after the answer, and
 * if it fails the claim stays recorded without a status change and the reconciler decides. Until
 * then a claim on a sent order is only read, not written: the confirmation's write records it.
 */

export const REJECTED_STATUS = 400;
export const REJECTED_BODY = { ok: false, error: "rejected" } as const;

export interface WebhookRoutesOptions {
  secret: string;
  keyMode?: KeyMode;
  /** WEBHOOK_MAX_BODY_BYTES; default 64 KiB. */
  maxBodyBytes?: number;
  /** WEBHOOK_CONFIRM_FINAL; default true. */
  confirmFinal?: boolean;
  /** PROVIDER_UTC_OFFSET_MINUTES: the offset of a zone-less timestamp; default Nepal Time. */
  timestampUtcOffsetMinutes?: number;
  orders: Pick<Orders, "apply" | "get" | "getByTransactionId" | "takeClaimCheck">;
  provider: Pick<OrdersProvider, "statusByReference">;
  /** A final order's unconfirmed claims: one status query per this long (apply.ts; default 10 min). */
  claimCooldownMs?: number;
  logger?: Logger;
  now?: () => number;
  registry?: Registry;
  metrics?: MoneyPathMetrics;
}

export type WebhookRoutes = Hono & {
  /** Resolves when every background confirmation started so far has finished (tests, shutdown). */
  settled(): Promise<void>;
};

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The routes: the answer to each request; reading (read-body.ts), decoding (decode.ts), applying (apply.ts). */
export function createWebhookRoutes(opts: WebhookRoutesOptions): WebhookRoutes {
  const log = opts.logger;
  const now = opts.now ?? Date.now;
  const maxBodyBytes = opts.maxBodyBytes ?? 64 * 1024;
  const metrics = opts.metrics ?? createMoneyPathMetrics(opts.registry);
  const signatureOk = signatureVerifier(opts.secret);
  const decoder = {
    signatureOk,
    key: decryptionKey(opts.secret, opts.keyMode ?? "php"),
    timestampUtcOffsetMinutes: opts.timestampUtcOffsetMinutes,
  };
  const confirmations = createConfirmations({
    orders: opts.orders,
    provider: opts.provider,
    logger: log,
    now,
  });
  const applyDeps = {
    orders: opts.orders,
    confirmations,
    confirmFinal: opts.confirmFinal ?? true,
    ...(opts.claimCooldownMs === undefined ? {} : { claimCooldownMs: opts.claimCooldownMs }),
    logger: log,
    now,
  };
  const app = new Hono();

  app.get("/", (c) => {
    metrics.webhooksReceived.inc({ method: "GET" });
    if (!signatureOk(c.req.header("x-signature"))) {
      metrics.webhooksRejected.inc({ reason: "signature" });
      return c.json({ ok: false, error: "unauthorized" }, 401);
    }
    return c.json({ status: "ok", message: "webhook connected" }, 200);
  });

  app.post("/", async (c) => {
    metrics.webhooksReceived.inc({ method: "POST" });
    // After the signature, every failure (envelope, Base64, length, padding, JSON, fields) is ONE
    // reason in metrics and logs: telling padding from payload errors apart anywhere an attacker
    // may see it (a metrics page, a log shipper) is a padding oracle.
    const reject = (reason: "read" | "signature" | "invalid") => {
      metrics.webhooksRejected.inc({ reason });
      log?.debug({ reason }, "webhook rejected");
      return c.json(REJECTED_BODY, REJECTED_STATUS);
    };
    let body: string;
    try {
      body = await readCapped(c.req.raw, maxBodyBytes);
    } catch (err) {
      if (err instanceof TooLarge) {
        metrics.webhooksRejected.inc({ reason: "too_large" });
        // Not drained: the rest of the body stays unread, so this connection cannot carry another request.
        return c.json(
          { ok: false, error: "too large" },
          413,
          err.drained ? {} : { Connection: "close" },
        );
      }
      return reject("read");
    }
    const decoded = decodeWebhook(decoder, c.req.header("x-signature"), body);
    if (!decoded.ok) return reject(decoded.reason);
    try {
      await applyWebhookEvent(applyDeps, decoded.payload);
    } catch (err) {
      // Our failure (store down), not the sender's: 503 so the provider delivers again.
      log?.error({ err: message(err) }, "webhook could not be recorded");
      return c.json({ ok: false, error: "unavailable" }, 503);
    }
    return c.json({ ok: true }, 200);
  });

  return Object.assign(app, { settled: () => confirmations.settled() });
}
