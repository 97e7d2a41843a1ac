import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import type { IdleDeadlines } from "./idle.ts";

/**
 * Ends whatever a chat was doing: its session, its conversation (a flow half done, waiting on a
 * question), its idle deadline and, for a WhatsApp chat, its last numbered list (a typed digit
 * would press a row of the old holder's list: `alsoForget`, system/parts.ts). For a chat that changes hands under the same chat id: a
 * WhatsApp number released from its account (/waid release) and the fresh account opened for its
 * next holder (whatsapp/inbound.ts). Both are keyed by the chat id (create-bot.ts `chatKey`), so
 * the next holder would otherwise answer the old holder's open question, as the old account.
 */
export interface ChatStateEraser {
  forget(chatId: number): Promise<void>;
  /** More the chat keeps elsewhere (a WhatsApp chat's numbered list), forgotten with it. */
  alsoForget(hook: (chatId: number) => Promise<void>): void;
}

/** The eraser with its hooks: `own` first, then each hook, in the order they were added. */
function withHooks(own: (chatId: number) => Promise<void>): ChatStateEraser {
  const hooks: Array<(chatId: number) => Promise<void>> = [];
  return {
    async forget(chatId) {
      await own(chatId);
      for (const hook of hooks) await hook(chatId);
    },
    alsoForget: (hook) => {
      hooks.push(hook);
    },
  };
}

export function redisChatState(
  redis: RedisClient,
  prefix: string,
  idle: IdleDeadlines,
): ChatStateEraser {
  const k = keyspace(prefix);
  return withHooks(async (chatId) => {
    // One DEL per key: on a Cluster the two may live on different nodes.
    await redis.del(k.conversationPrefix + chatId);
    await redis.del(k.sessionPrefix + chatId);
    // Without its time: no notice of a flow that is gone ("your previous request ended").
    await idle.disarm(chatId);
  });
}

/**
 * In memory (local mode without Redis) the sessions and conversations live inside the bot
 * (create-bot.ts): only the deadline goes here; a flow left over ends on the next update, which
 * acts as another account than the one it started with (flow/next-update.ts).
 */
export function memoryChatState(idle: IdleDeadlines): ChatStateEraser {
  return withHooks(async (chatId) => {
    await idle.disarm(chatId);
  });
}
