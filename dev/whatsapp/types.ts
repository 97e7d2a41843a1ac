// What the WhatsApp Cloud API stand-in shows its users (tests, the chat driver): the business
// messages it accepted, the options it takes, and its control surface.
import type { Hono } from "hono";

export type StandInKind = "text" | "button" | "list" | "cta_url" | "template" | "document";
export type StandInStatus = "accepted" | "sent" | "delivered" | "read" | "failed";

/** A reply button or a list row (or a template quick reply: id = title = its payload). */
export interface StandInButton {
  id: string;
  title: string;
  description?: string;
}

/** One business message the stand-in accepted. */
export interface StandInMessage {
  wamid: string;
  /** The phone (wa_id) it went to. */
  to: string;
  /** `now()` when accepted (ms). */
  at: number;
  /** The JSON sent, minus `messaging_product` and `to` / `recipient`. */
  body: Record<string, unknown>;
  kind: StandInKind;
  /**
   * text: its body; interactive: the body text (header and footer stay in `body`); template:
   * "[template NAME/LANG] p1 | p2" (the stand-in does not know the approved wording).
   */
  text: string;
  /** Reply buttons or list rows, in order; a template's quick-reply payloads. */
  buttons: StandInButton[];
  /** The last status the stand-in emitted for it. */
  status: StandInStatus;
  /** A document message: the uploaded media it named (the text is its caption). */
  document?: StandInMedia;
}

/** A file uploaded with POST /{phone-number-id}/media. */
export interface StandInMedia {
  id: string;
  filename: string;
  mimeType: string;
  bytes: Uint8Array;
}

export type StandInMatch = string | RegExp | ((m: StandInMessage) => boolean);

export interface StandInLogger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export interface WhatsAppStandInOptions {
  appSecret: string;
  accessToken: string;
  phoneNumberId: string;
  verifyToken?: string;
  /** Where webhooks are POSTed; deliveries wait until one is set. */
  webhookUrl?: string;
  now?: () => number;
  logger?: StandInLogger;
  /** metadata.display_phone_number (digits). */
  displayPhoneNumber?: string;
  /** entry[].id: the WhatsApp Business Account. */
  wabaId?: string;
  /** Waits before each retry of a webhook not answered 200; the count is the number of retries. */
  retryDelaysMs?: number[];
  /** One webhook POST's timeout. */
  webhookTimeoutMs?: number;
  /** Gap between the sent, delivered and read statuses of an accepted message. */
  statusGapMs?: number;
  /**
   * A free-form send outside the 24-hour window: "sync" (default) answers 400 code 131047;
   * "status" accepts it and then sends a `failed` status with 131047 (Meta does both).
   */
  windowRefusal?: "sync" | "status";
}

export type WebhookKind = "messages" | "statuses";

export interface WebhookDelivery {
  at: number;
  /** The HTTP status answered; 0 when the POST failed (refused, timed out). */
  status: number;
  body: string;
}

export interface StandInFaults {
  /** The next `n` sends (to `waId`, or to anyone) are answered 400 with this Meta error code. */
  failNextSends(code: number, n?: number, waId?: string): void;
  /** The next `n` webhooks (of `kind`, or any) are never POSTed. */
  dropNextWebhooks(n: number, kind?: WebhookKind): void;
  /** Every webhook waits `ms` before its POST and deliveries no longer queue per phone (0: off). */
  delayWebhooksMs(ms: number): void;
  /** The next `n` webhooks (of `kind`, or any) are POSTed twice, same bytes, one after the other. */
  duplicateNextWebhooks(n: number, kind?: WebhookKind): void;
  /** The next send to `waId` is accepted, then gets `sent` and a `failed` status with `code`. */
  failStatusFor(waId: string, code: number): void;
  /** The number's next webhooks carry no `user_id` (until a message names one again). */
  omitUserIdOf(waId: string): void;
}

export interface WhatsAppStandIn {
  /** The Graph API: POST /:version/:phoneNumberId/messages; everything else 400 code 100. */
  app: Hono;
  setWebhookUrl(url: string): void;
  /** The customer writes; resolves with the inbound wamid once the webhook is queued. */
  userSends(user: { waId: string; name?: string; userId?: string }, text: string): Promise<string>;
  /**
   * Any other message of the customer's (a reaction, a welcome request, a system notice): `message`
   * is the webhook's message minus `from`, `id` and `timestamp`; resolves with its wamid.
   */
  userSendsMessage(
    user: { waId: string; name?: string; userId?: string },
    message: Record<string, unknown>,
  ): Promise<string>;
  /** The customer taps a button / list row (by id or title) of a business message. */
  tap(waId: string, businessWamid: string, idOrTitle: string): Promise<string>;
  messagesTo(waId: string): StandInMessage[];
  /**
   * With `afterWamid` (inbound or business): the first matching business message after it;
   * without: the newest matching one. Waits up to `timeoutMs` (default 10 s).
   */
  waitForMessage(
    waId: string,
    match?: StandInMatch,
    opts?: { afterWamid?: string; timeoutMs?: number },
  ): Promise<StandInMessage>;
  /** Free-form sends to that phone get 131047 until the user writes again. */
  closeWindow(waId: string): void;
  faults: StandInFaults;
  /** Statuses emitted for a business message, in order. */
  statuses(wamid: string): string[];
  /** Every webhook POST attempt, in order. */
  webhookDeliveries(): WebhookDelivery[];
  /** The "read" (+ typing indicator) calls accepted, in order. */
  readMarks(): { messageId: string; typing: boolean; at: number }[];
  /** Accepted sends. */
  sendCount(): number;
  /** Calls the product's verify GET (hub.mode=subscribe) with `token` (default verifyToken). */
  verifyWebhook(token?: string): Promise<{ status: number; body: string; challenge: string }>;
  /** Resolves once every scheduled status is emitted and no webhook is queued or in flight. */
  settled(): Promise<void>;
  /** Stops timers and retries. */
  close(): Promise<void>;
}
