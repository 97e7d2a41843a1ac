import { NOT_SENT_PREFIX } from "../telegram/api.ts";

/** What a Bot API failure means for the notifier. grammY's GrammyError carries error_code and description. */
export interface ApiFailure {
  code: number | undefined;
  description: string;
  retryAfterMs: number | undefined;
  /** A hold another instance shared (the pacer's SendsHeld): its end, on this clock. */
  heldUntil?: number;
}

export function classifyApiError(err: unknown): ApiFailure {
  const e = err as {
    error_code?: unknown;
    description?: unknown;
    message?: unknown;
    parameters?: { retry_after?: unknown };
    heldUntil?: unknown;
  };
  const code = typeof e?.error_code === "number" ? e.error_code : undefined;
  const description =
    typeof e?.description === "string"
      ? e.description
      : typeof e?.message === "string"
        ? e.message
        : String(err);
  const ra = e?.parameters?.retry_after;
  const held = e?.heldUntil;
  return {
    code,
    description,
    retryAfterMs: typeof ra === "number" && ra >= 0 ? ra * 1000 : undefined,
    ...(typeof held === "number" ? { heldUntil: held } : {}),
  };
}

const NOT_MODIFIED = /message is not modified/i;
const CANNOT_EDIT = /message to edit not found|message can't be edited|MESSAGE_ID_INVALID/i;
const GONE_CHAT =
  /chat not found|user is deactivated|bot was kicked|bot was blocked|PEER_ID_INVALID/i;

/** The chat is gone (blocked, deleted, kicked): it is marked inactive, the message dropped. */
export const isGoneChat = ({ code, description }: ApiFailure): boolean =>
  code === 403 || (code === 400 && GONE_CHAT.test(description));

/**
 * The message cannot be edited (deleted by the user, too old, not ours): an edit shows nothing.
 * A receipt edit that was to carry a push's outcome then leaves the push to be sent anew.
 */
export const isUneditable = ({ code, description }: ApiFailure): boolean =>
  code === 400 && CANNOT_EDIT.test(description);

/** An edit with nothing more to do: the text is already shown, or the message cannot be edited. */
export const isSettledEdit = ({ code, description }: ApiFailure): boolean =>
  code === 400 && (NOT_MODIFIED.test(description) || CANNOT_EDIT.test(description));

/**
 * A send that trying again will not deliver, on either channel: the chat is gone, or the message
 * itself is refused (400: Telegram's bad request, or Meta's refusal, which the WhatsApp router
 * answers as one). The notifier drops or dead-letters these; 429, 5xx and a lost answer are not.
 */
export const isUndeliverable = (f: ApiFailure): boolean => isGoneChat(f) || f.code === 400;

/**
 * A 5xx that says nothing was sent (NOT_SENT_PREFIX: the WhatsApp router's answer to a send held by
 * a rate limit, Meta unavailable, the business or the template refused). Trying again later may
 * well work and says nothing about the message, so it uses up none of its tries: it waits, bounded
 * by the entry's age (retryForMs) as a push is.
 */
export const sentNothing = ({ code, description }: ApiFailure): boolean =>
  code !== undefined && code >= 500 && description.startsWith(NOT_SENT_PREFIX);
