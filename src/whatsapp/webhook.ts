import { Hono } from "hono";
import type { Logger } from "../logger.ts";
import { readBytesCapped, TooLarge } from "../webhook/read-body.ts";

export { readBytesCapped };

import { normalizeWebhook } from "./payload.ts";
import { sameSecret, verifySignature } from "./signature.ts";
import type { WaWebhookEvents } from "./types.ts";

export interface WhatsAppWebhookOptions {
  appSecret: string;
  verifyToken: string;
  /** A larger body gets 413 before it is buffered. */
  bodyLimitBytes: number;
  /** The integrator's durable enqueue: resolved means stored, so Meta may stop redelivering. */
  accept: (events: WaWebhookEvents) => Promise<void>;
  logger: Logger;
}

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Meta's webhook, mounted where WHATSAPP_WEBHOOK_PATH says (routes are relative to the mount).
 *
 * GET: the subscription handshake: the raw hub.challenge when the mode is "subscribe" and the
 * token matches (constant time), else 403.
 * POST, in this order: size (413), X-Hub-Signature-256 over the exact bytes BEFORE any parsing
 * (401), JSON (400), normalisation (a payload that is not ours: 200, Meta sends other fields), then
 * `accept` (the durable enqueue) and 200 EVENT_RECEIVED. When accept fails the answer is 503 so
 * Meta delivers again (it retries for days); the log names the error, never the body. No input
 * reaches a 500.
 */
export function whatsappWebhook(opts: WhatsAppWebhookOptions): Hono {
  const app = new Hono();
  const log = opts.logger;

  app.get("/", (c) => {
    const mode = c.req.query("hub.mode");
    const token = c.req.query("hub.verify_token");
    const challenge = c.req.query("hub.challenge");
    if (
      mode !== "subscribe" ||
      token === undefined ||
      challenge === undefined ||
      !sameSecret(token, opts.verifyToken)
    ) {
      log.warn({ mode }, "whatsapp webhook: verification refused");
      return c.text("forbidden", 403);
    }
    return c.text(challenge, 200);
  });

  app.post("/", async (c) => {
    let bytes: Uint8Array;
    try {
      bytes = await readBytesCapped(c.req.raw, opts.bodyLimitBytes);
    } catch (err) {
      if (err instanceof TooLarge) {
        log.warn({ limit: opts.bodyLimitBytes }, "whatsapp webhook: body too large");
        if (!err.drained) c.header("Connection", "close");
        return c.text("payload too large", 413);
      }
      log.warn({ err: errText(err) }, "whatsapp webhook: body unreadable");
      return c.text("bad request", 400);
    }
    if (!verifySignature(opts.appSecret, bytes, c.req.header("x-hub-signature-256"))) {
      log.warn("whatsapp webhook: signature missing or wrong");
      return c.text("unauthorized", 401);
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(bytes).toString("utf8"));
    } catch {
      log.warn("whatsapp webhook: body is not JSON");
      return c.text("bad request", 400);
    }
    const events = normalizeWebhook(body);
    if (!events || (events.messages.length === 0 && events.statuses.length === 0)) {
      log.debug("whatsapp webhook: nothing for us; acknowledged");
      return c.text("EVENT_RECEIVED", 200);
    }
    try {
      await opts.accept(events);
    } catch (err) {
      log.error(
        { err: errText(err), messages: events.messages.length, statuses: events.statuses.length },
        "whatsapp webhook: events not stored; Meta will deliver again",
      );
      return c.text("unavailable", 503);
    }
    return c.text("EVENT_RECEIVED", 200);
  });

  app.onError((err, c) => {
    log.error({ err: errText(err) }, "whatsapp webhook: unexpected error");
    return c.text("bad request", 400);
  });
  return app;
}
