import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import type { IdleDeadlines } from "./idle.ts";

/**
 * Ends whatever a chat was doing: its session, its conversation (a flow half done, waiting on a
 * question) and its idle deadline. For a chat that changes hands under the same chat id: a
 * WhatsApp number released from its account (/waid release) and the fresh account opened for its
 * next holder (whatsapp/inbound.ts). Both are keyed by the chat id (create-bot.ts `chatKey`), so
 * the next holder would otherwise answer the old holder's open question, as the old account.
 */
export interface ChatStateEraser {
  forget(chatId: number): Promise<void>;
}

export function redisChatState(
  redis: RedisClient,
  prefix: string,
  idle: IdleDeadlines,
): ChatStateEraser {
  const k = keyspace(prefix);
  return {
    async forget(chatId) {
      // One DEL per key: on a Cluster the two may live on different nodes.
      await redis.del(k.conversationPrefix + chatId);
      await redis.del(k.sessionPrefix + chatId);
      // Without its time: no notice of a flow that is gone ("your previous request ended").
      await idle.disarm(chatId);
    },
  };
}

/**
 * In memory (local mode without Redis) the sessions and conversations live inside the bot
 * (create-bot.ts): only the deadline goes here; a flow left over ends on the next update, which
 * acts as another account than the one it started with (flow/next-update.ts).
 */
export function memoryChatState(idle: IdleDeadlines): ChatStateEraser {
  return {
    async forget(chatId) {
      await idle.disarm(chatId);
    },
  };
}
