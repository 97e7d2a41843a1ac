import type { Context, MiddlewareFn } from "grammy";
import type { Logger } from "../logger.ts";
import { pushChatOf } from "../whatsapp/chat-ids.ts";

/**
 * A chat marked inactive (a push or an edit refused with 403: the user blocked the bot, WhatsApp's
 * 131026) gets its notifications again as soon as the user writes to the bot: any update of a
 * private chat from the user proves the chat reachable (review s31-notify, 1), /start being one
 * of them. Telegram's `my_chat_member` going back to "member" (an unblock from Settings, with no
 * /start) too; going to "kicked" (a block) does not.
 *
 * The mark (notify/redis-queue.ts, one key a chat) is read by the update's early read (prefetch.ts,
 * `earlyReadKeys`): on the normal path, a chat with no mark, nothing is sent to Redis. An update
 * whose early read has no answer (no Redis, a turn that had to wait) asks the queue (memory, or
 * one EXISTS); only a marked chat is reactivated (a DEL).
 */
export function reactivateOnUpdate<C extends Context>(opts: {
  /** The update's early read of the mark of `chatId`: null none, undefined not read. */
  mark: (ctx: C, chatId: number) => Promise<Buffer | null | undefined>;
  reactivate: (chatId: number, userId: number) => Promise<void>;
  /** Asked when the early read has no answer; absent, the chat is reactivated then. */
  inactive?: (chatId: number) => Promise<boolean>;
  logger: Logger;
}): MiddlewareFn<C> {
  return async (ctx, next) => {
    const marked = markedChatOf(ctx);
    const from = ctx.from?.id;
    if (marked !== undefined && from !== undefined && ctx.chat !== undefined) {
      try {
        const mark = await opts.mark(ctx, marked);
        const inactive =
          mark === undefined ? ((await opts.inactive?.(marked)) ?? true) : mark !== null;
        if (inactive) await opts.reactivate(ctx.chat.id, from);
      } catch (err) {
        // The user's update goes on: the next one tries again.
        opts.logger.warn({ err, chatId: ctx.chat.id }, "reactivating the chat failed");
      }
    }
    return next();
  };
}

/** The user who wrote in a private chat with this update (undefined: no such user, or a block). */
function writer(ctx: Context): number | undefined {
  if (ctx.chat?.type !== "private" || ctx.from === undefined || ctx.from.is_bot) return undefined;
  const member = ctx.update.my_chat_member;
  if (member !== undefined && member.new_chat_member.status !== "member") return undefined;
  return ctx.from.id;
}

/**
 * The chat whose mark this update clears, if any: the chat its flows push to (a released
 * WhatsApp number's next holder pushes to its fresh account: whatsapp/chat-ids.ts).
 */
export function markedChatOf(ctx: Context): number | undefined {
  const from = writer(ctx);
  return from === undefined || ctx.chat === undefined ? undefined : pushChatOf(ctx.chat.id, from);
}
