import type { Logger } from "../logger.ts";
import type { ChatCallsDeps } from "./chat-calls.ts";
import type { WaChatStore } from "./chat-store.ts";
import type { OwedReplies } from "./owed-replies.ts";
import type { ButtonRows } from "./router-text.ts";
import type { WaOutbound } from "./types.ts";

/** The router's inputs (router.ts), in a module of their own so its parts can name them. */

export interface RenderInput {
  text: string;
  rows: ButtonRows;
  opener: string;
}
export interface Rendered {
  messages: WaOutbound[];
  choices: { n: number; data: string; label: string }[];
}

export interface WaSender {
  /** `signal`: the caller gave up; a send not yet out does not go, one on its way is cut. */
  send(to: string, body: WaOutbound, opts?: { signal?: AbortSignal }): Promise<{ wamid: string }>;
  /** A media upload (POST /{phone-number-id}/media): the id a document message names. */
  upload?(file: { bytes: Uint8Array; filename: string; mimeType: string }): Promise<{ id: string }>;
  markRead(wamid: string, typing?: boolean): Promise<void>;
}

export interface RouterDeps {
  store: WaChatStore;
  client: WaSender;
  render: (input: RenderInput) => Rendered;
  /** The chat's language, and the list opener's label in it. */
  localeOf: (chatId: number) => Promise<{ locale: string; opener: string }>;
  template: { name: string; languages: Record<string, string> };
  now: () => number;
  logger: Logger;
  /** Calls that name no WhatsApp chat go to Telegram when it is configured; else answered here. */
  telegram: boolean;
  /** getMe's answer when there is no Telegram. */
  botInfo: Record<string, unknown>;
  /**
   * Whether a text carries a secret whose words the chat's record must not keep (a back-office
   * login link: Redis keeps only its token's SHA-256); absent, none does.
   */
  secretText?: (text: string) => boolean;
  /**
   * Whether the chat's account waits on a hold (another Meta user id wrote from its number:
   * accounts/wa-identity.ts), so the chat is read by someone the account may not be: asked only
   * for a message that is not an answer to the chat's own sender (`withheld`). Absent: none.
   */
  heldChat?: (chatId: number) => Promise<boolean>;
  /**
   * The WhatsApp chat of the number a fresh WhatsApp account (chat-ids.ts `isFreshWaAccount`)
   * holds now; null: none (its messages go nowhere). Asked only for such an account's calls.
   */
  chatOfAccount?: (accountId: number) => Promise<number | null>;
  /** Where a kept-back account's messages go instead (chat-calls.ts `ChatCallsDeps.reachOf`). */
  reachOf?: (account: number) => Promise<"held" | { chatId: number } | null>;
  /** Who a chat stands for now beside its own account (chat-calls.ts `ChatCallsDeps.chatNowOf`). */
  chatNowOf?: ChatCallsDeps["chatNowOf"];
  /** Answers a rate limit kept from going, owed to their chats (router-owed.ts); absent: none. */
  owed?: OwedReplies;
}
