import type { Conversation, ConversationFlavor } from "@grammyjs/conversations";
import type { I18nFlavor } from "@grammyjs/i18n";
import type { Context, SessionFlavor } from "grammy";
import type { Locale } from "./i18n.ts";

/** What a chat remembers between conversations (Redis or memory, with a TTL). */
export interface SessionData {
  /** Chosen with /language; Telegram's language code decides until then. */
  locale?: Locale;
  /** The agent whose shop QR code (/start shop-<id>) was scanned before registering (issue 30). */
  shop?: number;
  // Saved numbers moved to their own durable store (src/saved/); an old session's `savedNumbers`
  // field is ignored.
}

export type BotContext = ConversationFlavor<Context & SessionFlavor<SessionData> & I18nFlavor>;

/**
 * Inside conversations the context is plain: sessions and i18n are read through
 * `conversation.external`, so replays never see a value that changed in between.
 */
export type FlowContext = Context;
export type FlowConversation = Conversation<BotContext, FlowContext>;

export const initialSession = (): SessionData => ({});
