import { encryptPayload, type KeyMode, signature } from "../../src/webhook/codec.ts";
import type { Scheduler } from "./scheduler.ts";
import { isoTimestamp } from "./timefmt.ts";

/**
 * Webhook deliveries of spec 6: the signed GET of the connect button (6.1) and the encrypted, signed
 * POST of every status change (6.2). Non-2xx answers and timeouts are retried with exponential
 * backoff up to a bound; every attempt is recorded for the admin API.
 */

export interface WebhookTarget {
  url: string;
  secret: string;
}

export interface DeliveryAttempt {
  /** ISO 8601 time the attempt started. */
  at: string;
  /** HTTP status of the answer; null when none came (timeout, refused, reset). */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

type DeliveryState = "scheduled" | "sending" | "retrying" | "delivered" | "failed" | "dropped";

export interface Delivery {
  id: number;
  kind: "event" | "connect";
  url: string;
  transactionId: string | null;
  orderId: string | null;
  /** The transaction status the event reports. */
  eventStatus: string | null;
  /** The second copy sent by the duplicateWebhooks fault. */
  duplicate: boolean;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  createdAt: string;
  /** The plaintext payload (before encryption), for inspection. */
  payload: unknown;
}

export interface WebhookPolicy {
  /** Attempts per event including the first. Default 5. */
  maxAttempts?: number;
  /** Wait before retry n is backoffMs * 2^(n-1). Default 1000. */
  backoffMs?: number;
  /** Per-attempt timeout. Default 5000. */
  timeoutMs?: number;
  /** Key derivation; the provider (PHP) uses "php". */
  keyMode?: KeyMode;
  /** PHP flag 0 variant: the ciphertext after the IV is Base64 text. Default false (raw bytes). */
  base64Ciphertext?: boolean;
  /** Fixed IVs for test vectors; random when absent. */
  iv?: () => Buffer;
}

export interface WebhookDeps {
  fetch: typeof fetch;
  scheduler: Scheduler;
  now: () => number;
  policy: WebhookPolicy;
  logger: { info: (obj: object, msg?: string) => void; warn: (obj: object, msg?: string) => void };
}

export interface EventOptions {
  duplicate: boolean;
  delayMs: number;
  drop: boolean;
}

function headersFor(secret: string): Record<string, string> {
  return {
    "X-Signature": signature(secret),
    "Content-Type": "application/json",
    Accept: "application/json",
  };
}

function describeError(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === "TimeoutError" || err.name === "AbortError") return "timeout";
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? err.message;
  }
  return String(err);
}

export function createWebhookSender(deps: WebhookDeps) {
  const maxAttempts = Math.max(1, deps.policy.maxAttempts ?? 5);
  const backoffMs = Math.max(0, deps.policy.backoffMs ?? 1000);
  const timeoutMs = Math.max(1, deps.policy.timeoutMs ?? 5000);
  let nextId = 1;
  /** Resolves when a delivery reaches a final state (delivered, failed, dropped). */
  const finished = new WeakMap<Delivery, { promise: Promise<void>; resolve: () => void }>();
  const finish = (d: Delivery) => finished.get(d)?.resolve();

  const newDelivery = (
    kind: Delivery["kind"],
    url: string,
    payload: Record<string, unknown> | null,
    duplicate: boolean,
  ): Delivery => {
    const d: Delivery = {
      id: nextId++,
      kind,
      url,
      transactionId: payload ? String(payload.transaction_id) : null,
      orderId: payload ? String(payload.order_id) : null,
      eventStatus: payload ? String(payload.status) : null,
      duplicate,
      state: "scheduled",
      attempts: [],
      createdAt: isoTimestamp(deps.now()),
      payload,
    };
    let resolve = () => {};
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    finished.set(d, { promise, resolve });
    return d;
  };

  async function attempt(
    d: Delivery,
    target: WebhookTarget,
    body: string,
    n: number,
  ): Promise<void> {
    d.state = "sending";
    const started = performance.now();
    const at = isoTimestamp(deps.now());
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const res = await deps.fetch(target.url, {
        method: "POST",
        headers: headersFor(target.secret),
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      statusCode = res.status;
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) error = `HTTP ${res.status}`;
    } catch (err) {
      error = describeError(err);
    }
    d.attempts.push({
      at,
      statusCode,
      error,
      durationMs: Math.round(performance.now() - started),
    });
    if (error === null) {
      d.state = "delivered";
      finish(d);
      deps.logger.info(
        { delivery: d.id, tx: d.transactionId, status: d.eventStatus },
        "webhook delivered",
      );
      return;
    }
    if (n >= maxAttempts) {
      d.state = "failed";
      finish(d);
      deps.logger.warn({ delivery: d.id, tx: d.transactionId, error }, "webhook gave up");
      return;
    }
    d.state = "retrying";
    deps.scheduler.schedule(backoffMs * 2 ** (n - 1), () => attempt(d, target, body, n + 1));
  }

  return {
    /** Queues one event delivery (and its duplicate when asked); returns the records created. */
    sendEvent(
      target: WebhookTarget,
      payload: Record<string, unknown>,
      opts: EventOptions,
    ): Delivery[] {
      const copies = opts.duplicate ? 2 : 1;
      const out: Delivery[] = [];
      // One ciphertext per event: a duplicate is the same body sent again, as a retry would be.
      const data = encryptPayload(target.secret, payload, {
        mode: deps.policy.keyMode ?? "php",
        base64Ciphertext: deps.policy.base64Ciphertext ?? false,
        ...(deps.policy.iv ? { iv: deps.policy.iv() } : {}),
      });
      const body = JSON.stringify({ data });
      for (let i = 0; i < copies; i++) {
        const d = newDelivery("event", target.url, payload, i > 0);
        out.push(d);
        if (opts.drop) {
          d.state = "dropped";
          finish(d);
          continue;
        }
        deps.scheduler.schedule(opts.delayMs, () => attempt(d, target, body, 1));
      }
      return out;
    },

    /** Resolves when every given delivery has reached a final state. */
    async whenDone(deliveries: readonly Delivery[]): Promise<void> {
      await Promise.all(deliveries.map((d) => finished.get(d)?.promise));
    },

    /** Spec 6.1: signed GET; connected when the answer is 200 with a JSON content type. */
    async connect(target: WebhookTarget): Promise<{ connected: boolean; delivery: Delivery }> {
      const d = newDelivery("connect", target.url, null, false);
      d.state = "sending";
      const started = performance.now();
      const at = isoTimestamp(deps.now());
      let statusCode: number | null = null;
      let error: string | null = null;
      try {
        const res = await deps.fetch(target.url, {
          method: "GET",
          headers: headersFor(target.secret),
          redirect: "manual",
          signal: AbortSignal.timeout(timeoutMs),
        });
        statusCode = res.status;
        await res.arrayBuffer().catch(() => undefined);
        const type = res.headers.get("content-type") ?? "";
        if (res.status !== 200) error = `HTTP ${res.status}`;
        else if (!/^application\/json\b/i.test(type)) error = `content-type ${type || "missing"}`;
      } catch (err) {
        error = describeError(err);
      }
      d.attempts.push({
        at,
        statusCode,
        error,
        durationMs: Math.round(performance.now() - started),
      });
      d.state = error === null ? "delivered" : "failed";
      finish(d);
      return { connected: error === null, delivery: d };
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
