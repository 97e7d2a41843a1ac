/**
 * The WhatsApp Cloud API as the product sees it: what it sends (one message body each) and what
 * the webhook brings, normalised. Shared by the renderer, the client, the webhook and the inbound
 * queue, so each speaks of the same shapes (../shared/spec/whatsapp-notes.md has the limits).
 */

/** A reply button (1 to 3 per message): id <= 256, title <= 20 and unique. */
export interface WaReplyButton {
  type: "reply";
  reply: { id: string; title: string };
}

/** A list row (10 rows at most per message): id <= 200, title <= 24, description <= 72. */
export interface WaListRow {
  id: string;
  title: string;
  description?: string;
}

export type WaInteractive =
  | {
      type: "button";
      body: { text: string };
      footer?: { text: string };
      action: { buttons: WaReplyButton[] };
    }
  | {
      type: "list";
      body: { text: string };
      footer?: { text: string };
      /** `button` opens the list (<= 20); a section title is required when there are several. */
      action: { button: string; sections: { title?: string; rows: WaListRow[] }[] };
    };

export interface WaTemplate {
  name: string;
  language: { code: string; policy?: "deterministic" };
  components?: {
    type: "body";
    parameters: { type: "text"; text: string }[];
  }[];
}

/** One message body, without `messaging_product`, `recipient_type` and `to` (the client adds them). */
export type WaOutbound =
  | { type: "text"; text: { body: string; preview_url?: boolean } }
  | { type: "interactive"; interactive: WaInteractive }
  | { type: "template"; template: WaTemplate }
  /** A document uploaded first as media (its id), with a caption and the name the chat shows. */
  | { type: "document"; document: { id: string; caption?: string; filename?: string } };

/** A customer's message, as the webhook brought it (normalised by src/whatsapp/payload.ts). */
export interface WaInboundMessage {
  /** "wamid.…": the message's id, the key of its once-only handling. */
  wamid: string;
  /** The sender's phone in international digits, no "+" (`from`); absent for a BSUID-only sender. */
  waId?: string;
  /** The business-scoped user id newer webhooks carry (`contacts[].user_id`), kept beside the phone. */
  userId?: string;
  /** The profile name WhatsApp shows (`contacts[].profile.name`). */
  name?: string;
  /** Unix seconds, as sent. */
  timestamp: number;
  /**
   * "reaction": an emoji put on (or taken off) a business message; "welcome": WhatsApp's request
   * for a greeting when a customer opens the chat the first time; "system": WhatsApp's notice that
   * the customer changed number (`changedTo`) or their identity changed; "media": an image, video,
   * document, voice note or sticker, its caption in `text` when it has one (the file is never read).
   */
  kind:
    | "text"
    | "button_reply"
    | "list_reply"
    | "quick_reply"
    | "reaction"
    | "welcome"
    | "system"
    | "media"
    | "other";
  /** The text typed, the title of the button / row tapped, or a file's caption. */
  text?: string;
  /** The id of the button / row tapped, or a template quick reply's payload. */
  replyId?: string;
  /** `context.id`: the business message that carried the tapped button. */
  contextWamid?: string;
  /** A system notice's type (`user_changed_number`, `customer_identity_changed`). */
  systemType?: string;
  /** A changed number's new phone (`system.wa_id`). */
  changedTo?: string;
}

/** A status callback of a message the business sent. */
export interface WaStatusEvent {
  wamid: string;
  status: "sent" | "delivered" | "read" | "failed";
  timestamp: number;
  recipientId: string;
  errors?: { code: number; title?: string; message?: string }[];
}

export interface WaWebhookEvents {
  messages: WaInboundMessage[];
  statuses: WaStatusEvent[];
}
