import { Hono } from "hono";
import type { Registry } from "prom-client";
import type { Logger } from "../logger.ts";
import { providerReference } from "../orders/execute-request.ts";
import { createMoneyPathMetrics, type MoneyPathMetrics } from "../orders/metrics.ts";
import { isFinal, normalizeProviderStatus, type Order, type OrderStatus } from "../orders/model.ts";
import { eventFromStatus, type Orders, type OrdersProvider } from "../orders/service.ts";
import { cipherKey, decryptWithKey, type KeyMode, signatureVerifier } from "./codec.ts";
import { parseWebhookPayload, type WebhookPayload } from "./payload.ts";

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
  orders: Pick<Orders, "apply" | "get" | "getByTransactionId">;
  provider: Pick<OrdersProvider, "statusByReference">;
  logger?: Logger;
  now?: () => number;
  registry?: Registry;
  metrics?: MoneyPathMetrics;
}

export type WebhookRoutes = Hono & {
  /** Resolves when every background confirmation started so far has finished (tests, shutdown). */
  settled(): Promise<void>;
};

class TooLarge extends Error {
  constructor(
    /** The whole body was read (and discarded): the connection can carry the answer safely. */
    readonly drained: boolean,
  ) {
    super("too large");
  }
}

/**
 * How much of a too-large body is read and thrown away so the sender, still writing, gets our 413
 * instead of a reset connection; past this the connection is closed after the answer.
 */
export const DISCARD_LIMIT_BYTES = 1024 * 1024;

/** Reads and discards the rest of a body, up to `limit` bytes; true when it ended within. */
async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number) {
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return true;
    total += value.byteLength;
    if (total > limit) return false;
  }
}

/** The body as text, refusing more than `max` bytes without buffering them. */
async function readCapped(req: Request, max: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > max) {
    if (declared > DISCARD_LIMIT_BYTES || !req.body) throw new TooLarge(!req.body);
    throw new TooLarge(await discard(req.body.getReader(), DISCARD_LIMIT_BYTES));
  }
  // A declared length within the cap is enforced by Node's HTTP parser (the body cannot be longer),
  // so the whole body can be read at once: the server's fast path, much cheaper than a stream.
  if (Number.isFinite(declared)) return req.text();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) throw new TooLarge(await discard(reader, DISCARD_LIMIT_BYTES - total));
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** `data` of the envelope `{"data": "<Base64>"}`, or null. */
export function envelopeData(body: string): string | null {
  try {
    const json = JSON.parse(body) as unknown;
    if (json && typeof json === "object" && !Array.isArray(json)) {
      const data = (json as Record<string, unknown>).data;
      if (typeof data === "string" && data.length > 0) return data;
    }
  } catch {
    // falls through to null
  }
  return null;
}

/** Webhook claims may move an order that was sent to the provider; never a "placed" one. */
const SENT_STATES: OrderStatus[] = ["submitting", "unknown", "queued", "pending"];

export function createWebhookRoutes(opts: WebhookRoutesOptions): WebhookRoutes {
  const { secret, orders, provider } = opts;
  const keyMode = opts.keyMode ?? "php";
  const maxBodyBytes = opts.maxBodyBytes ?? 64 * 1024;
  const confirmFinal = opts.confirmFinal ?? true;
  const log = opts.logger;
  const now = opts.now ?? Date.now;
  const metrics = opts.metrics ?? createMoneyPathMetrics(opts.registry);
  const confirming = new Map<string, Promise<void>>();
  const signatureOk = signatureVerifier(secret);
  const key = cipherKey(secret, keyMode);

  /**
   * Status query for a final claim, then apply what the provider says (not what the webhook said).
   * `order` is the order as read (or the claim recorded on it) a moment ago: it saves reading it
   * again (changed meanwhile, it costs the compare-and-set a retry, and a final one changes no
   * more). The write names the claim: the answer's entry carries "confirms webhook X", and an
   * answer that says nothing readable, or no answer, leaves "claimed X; confirmation failed".
   */
  async function confirm(order: Order, claimed: OrderStatus): Promise<void> {
    let current = order;
    try {
      const answer = await provider.statusByReference(order.region, providerReference(order));
      const event = eventFromStatus(answer, "status", now(), `confirms webhook ${claimed}`);
      const applied = await orders.apply(
        { reference: order.reference, ...event, expect: SENT_STATES },
        order,
      );
      // The order may have become final since the claim was looked at (another process, a moment
      // ago): the same alarm as for a claim on a final order.
      if (applied.outcome === "unchanged") contradicts(applied.order, claimed);
      if (event.status !== null) return;
      // An unrecognised word: recorded in the order's list, without the claim; the note below.
      current = applied.order ?? order;
      log?.warn(
        { reference: order.reference, claimed, answered: event.unrecognised },
        "could not confirm webhook claim; the reconciler will decide",
      );
    } catch (err) {
      log?.warn(
        {
          reference: order.reference,
          claimed,
          err: err instanceof Error ? err.message : String(err),
        },
        "could not confirm webhook claim; the reconciler will decide",
      );
    }
    await orders.apply(
      {
        reference: order.reference,
        source: "webhook",
        status: null,
        at: now(),
        note: `claimed ${claimed}; confirmation failed`,
      },
      current,
    );
  }

  function scheduleConfirm(order: Order, claimed: OrderStatus): void {
    const { reference } = order;
    if (confirming.has(reference)) return; // one status query per order at a time
    const task = confirm(order, claimed)
      .catch((err) =>
        log?.error(
          { reference, err: err instanceof Error ? err.message : String(err) },
          "webhook confirmation crashed",
        ),
      )
      .finally(() => confirming.delete(reference));
    confirming.set(reference, task);
  }

  /**
   * A signed claim opposite to an outcome already decided and told to the user (e.g. an execute
   * that reached the provider after the reconciler concluded it never would). Nothing may change a
   * final order automatically, so it must at least not pass silently: a person has to look.
   */
  function contradicts(stored: Order | null, claimed: OrderStatus): void {
    if (!stored || !isFinal(stored.status) || stored.status === claimed) return;
    log?.error(
      { reference: stored.reference, stored: stored.status, claimed },
      "provider contradicts a final order; check it by hand",
    );
  }

  /**
   * The order an event names: by reference first, then by transaction id (as orders.apply finds it).
   * Always read, never this process's remembered copy (orders/recent.ts): a final claim on an order
   * another process has made final must cost no status query (a replayed claim would otherwise
   * make one), and a final copy may be one a failover has since taken back.
   */
  async function lookUp(where: { reference?: string; byTransactionId?: string }) {
    if (where.reference !== undefined) {
      const order = await orders.get(where.reference);
      if (order) return order;
    }
    return where.byTransactionId === undefined
      ? null
      : orders.getByTransactionId(where.byTransactionId);
  }

  async function accept(p: WebhookPayload): Promise<void> {
    const status = normalizeProviderStatus(p.status);
    const where = {
      ...(p.reference === undefined ? {} : { reference: p.reference }),
      ...(p.transactionId === undefined ? {} : { byTransactionId: p.transactionId }),
    };
    const at = now();
    if (status === null) {
      await orders.apply({
        ...where,
        source: "webhook",
        status: null,
        at,
        unrecognised: p.status.slice(0, 40),
      });
      return;
    }
    if (!isFinal(status) || !confirmFinal) {
      // Non-final claims cannot do harm (forward-only, never past final); with confirmation off a
      // final claim is trusted as the operator chose, transaction id included.
      await orders.apply({
        ...where,
        source: "webhook",
        status,
        at,
        expect: SENT_STATES,
        ...(isFinal(status) && p.transactionId !== undefined
          ? { transactionId: p.transactionId }
          : {}),
      });
      return;
    }
    // A claim on a sent order is not written before its confirmation: the confirmation's own write
    // carries it (its note names the claim, and a failed query records "claimed X; confirmation
    // failed"), and a claim lost with the process between the 200 and that write is recovered by
    // the reconciler, which queries every sent order that is not final. One read instead of a
    // read and a compare-and-set. An unknown order or one never sent is recorded as before: the
    // claim is all there is to go on (an admin's unmatched list, or the order's history).
    const found = await lookUp(where);
    const stored =
      found && (isFinal(found.status) || SENT_STATES.includes(found.status))
        ? found
        : (
            await orders.apply({
              ...where,
              source: "webhook",
              status: null,
              at,
              note: `claimed ${status}`,
            })
          ).order;
    if (stored && !isFinal(stored.status)) scheduleConfirm(stored, status);
    else contradicts(stored, status);
  }

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
    if (!signatureOk(c.req.header("x-signature"))) return reject("signature");
    const data = envelopeData(body);
    if (data === null) return reject("invalid");
    let plaintext: string;
    try {
      plaintext = decryptWithKey(key, data);
    } catch {
      return reject("invalid");
    }
    const payload = parseWebhookPayload(plaintext, opts.timestampUtcOffsetMinutes);
    if (!payload) return reject("invalid");
    try {
      await accept(payload);
    } catch (err) {
      // Our failure (store down), not the sender's: 503 so the provider delivers again.
      log?.error(
        { err: err instanceof Error ? err.message : String(err) },
        "webhook could not be recorded",
      );
      return c.json({ ok: false, error: "unavailable" }, 503);
    }
    return c.json({ ok: true }, 200);
  });

  return Object.assign(app, {
    async settled() {
      while (confirming.size > 0) await Promise.all([...confirming.values()]);
    },
  });
}
