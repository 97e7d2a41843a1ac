import { Agent, request } from "undici";
import { z } from "zod";
import type { Logger } from "../../logger.ts";
import {
  type Checkout,
  type CheckoutRequest,
  GatewayError,
  type Lookup,
  type LookupStatus,
  type PaymentGateway,
  type PaymentId,
  paymentIdSchema,
} from "./port.ts";

/**
 * Khalti's ePayment (KPG-2) over undici: `POST epayment/initiate/` and `POST epayment/lookup/`,
 * `Authorization: Key <secret>`, amounts in paisa. Every answer is checked with zod at this edge;
 * every call has one bounded timeout (the body included). The secret never leaves the header:
 * error details are cut from the answer's body with the key removed.
 */

const initiateAnswer = z.object({
  pidx: paymentIdSchema,
  payment_url: z.url({ protocol: /^https?$/ }),
  expires_at: z.string().optional(),
  expires_in: z.number().int().positive().optional(),
});

/**
 * Khalti's lookup words (khalti-notes.md), keyed by `wordKey`: a word in another casing or
 * spacing ("Partially refunded") is the same word. A word not here is `unknown`: nothing is
 * credited on it, and an open top-up is held for an admin (state.ts). Failing the lookup instead
 * left the payer's money unaccounted for, looked up again and again with nobody told.
 */
const STATUS: Record<string, LookupStatus> = {
  completed: "completed",
  pending: "pending",
  initiated: "initiated",
  expired: "expired",
  "user canceled": "cancelled",
  refunded: "refunded",
  "partially refunded": "partially_refunded",
};

/** A status word as `STATUS` keys it: trimmed, inner spaces single, lower case. */
const wordKey = (word: string) => word.trim().replace(/\s+/g, " ").toLowerCase();

const lookupAnswer = z.object({
  pidx: paymentIdSchema,
  total_amount: z.number().int().nonnegative(),
  status: z.string().max(200),
  transaction_id: z.string().min(1).max(128).nullable(),
  fee: z.number().int().nonnegative().default(0),
  refunded: z.boolean().default(false),
  // Not in Khalti's documented lookup answer; read when present so that a payment in another
  // currency or for another order is held rather than credited.
  currency: z.string().min(1).max(8).optional(),
  purchase_order_id: z.string().min(1).max(128).optional(),
});

const MAX_BODY = 64 * 1024;
const DETAIL_MAX = 300;

export interface KhaltiOptions {
  /** Ends in /api/v2 (the stand-in's or Khalti's). */
  baseUrl: string;
  secretKey: string;
  timeoutMs: number;
  logger?: Logger;
  now?: () => number;
}

export function createKhaltiGateway(opts: KhaltiOptions): PaymentGateway {
  const base = opts.baseUrl.replace(/\/+$/, "");
  const now = opts.now ?? Date.now;
  const dispatcher = new Agent({ keepAliveTimeout: 4_000, connections: 16 });
  const scrub = (text: string) =>
    (opts.secretKey ? text.split(opts.secretKey).join("[redacted]") : text).slice(0, DETAIL_MAX);

  async function post(path: string, body: unknown): Promise<{ status: number; json: unknown }> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, opts.timeoutMs);
    try {
      const res = await request(`${base}${path}`, {
        method: "POST",
        headers: {
          authorization: `Key ${opts.secretKey}`,
          "content-type": "application/json",
          accept: "application/json",
        },
        body: JSON.stringify(body),
        dispatcher,
        signal: controller.signal,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_BODY) {
          res.body.destroy();
          throw new GatewayError("malformed", "answer too large");
        }
        chunks.push(chunk as Buffer);
      }
      const text = Buffer.concat(chunks).toString("utf8");
      opts.logger?.debug({ path, httpStatus: res.statusCode }, "khalti answer");
      if (res.statusCode >= 500) throw new GatewayError("server", `HTTP ${res.statusCode}`);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new GatewayError("malformed", `HTTP ${res.statusCode}, not JSON`);
      }
      return { status: res.statusCode, json };
    } catch (err) {
      if (err instanceof GatewayError) throw err;
      if (timedOut) throw new GatewayError("timeout", `${path} after ${opts.timeoutMs} ms`);
      throw new GatewayError("network", scrub(err instanceof Error ? err.message : String(err)));
    } finally {
      clearTimeout(timer);
    }
  }

  const refusal = (status: number, json: unknown): GatewayError =>
    new GatewayError(
      status === 404 ? "not_found" : "refused",
      `HTTP ${status}: ${scrub(JSON.stringify(json))}`,
    );

  return {
    name: "khalti",
    async initiate(req: CheckoutRequest): Promise<Checkout> {
      const { status, json } = await post("/epayment/initiate/", {
        return_url: req.returnUrl,
        website_url: req.websiteUrl,
        amount: req.amountPaisa,
        purchase_order_id: req.purchaseOrderId,
        purchase_order_name: req.purchaseOrderName,
      });
      if (status !== 200) throw refusal(status, json);
      const a = initiateAnswer.safeParse(json);
      if (!a.success) throw new GatewayError("malformed", "initiate answer does not match");
      const parsedAt = a.data.expires_at ? Date.parse(a.data.expires_at) : Number.NaN;
      const expiresAt = Number.isFinite(parsedAt)
        ? parsedAt
        : now() + (a.data.expires_in ?? 1800) * 1000;
      return { paymentId: a.data.pidx, paymentUrl: a.data.payment_url, expiresAt };
    },
    async lookup(paymentId: PaymentId): Promise<Lookup> {
      const { status, json } = await post("/epayment/lookup/", { pidx: paymentId });
      // Khalti answers an expired or cancelled payment's lookup with a 400 that carries the same
      // fields: the body decides, not the HTTP status.
      const a = lookupAnswer.safeParse(json);
      if (!a.success || (status !== 200 && status !== 400)) throw refusal(status, json);
      if (a.data.pidx !== paymentId) throw new GatewayError("malformed", "lookup of another pidx");
      const key = wordKey(a.data.status);
      const known = Object.hasOwn(STATUS, key) ? STATUS[key] : undefined;
      return {
        paymentId: a.data.pidx,
        status: known ?? "unknown",
        // Shown to admins: printable ASCII only, short.
        ...(known ? {} : { statusWord: a.data.status.replace(/[^\x20-\x7e]/g, "?").slice(0, 40) }),
        totalPaisa: a.data.total_amount,
        transactionId: a.data.transaction_id,
        feePaisa: a.data.fee,
        refunded: a.data.refunded,
        ...(a.data.currency !== undefined ? { currency: a.data.currency } : {}),
        ...(a.data.purchase_order_id !== undefined
          ? { purchaseOrderId: a.data.purchase_order_id }
          : {}),
      };
    },
    async close() {
      await dispatcher.close();
    },
  };
}
