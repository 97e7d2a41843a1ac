import type { Context, MiddlewareFn } from "grammy";
import type { Logger } from "../logger.ts";
import type { ChatTurns, HeldTurn } from "../redis/chat-turns.ts";

/**
 * A chat's updates one at a time, in update_id order, across every instance (redis/chat-turns.ts):
 * the update waits for its chat's turn, holds it while the rest of the stack runs (the
 * conversation is saved before the turn is released), then frees it. grammY's sequentialize,
 * before this, keeps the order within the process for free; this keeps it between processes.
 *
 * `onTaken` is told how the turn was taken: anything read for the update before it (the
 * prefetched session and conversation state) may be stale when it had to wait or the chat's epoch
 * moved since the read. A wait that runs out (a holder
 * stuck far beyond any bound of the handlers) is logged and the update handled anyway: a chat
 * never stays blocked.
 */
export function chatOrder<C extends Context>(
  turns: ChatTurns,
  chatOf: (ctx: C) => string | undefined,
  opts: { logger: Logger; onTaken?: (ctx: C, turn: HeldTurn) => Promise<void> },
): MiddlewareFn<C> {
  return async (ctx, next) => {
    const chat = chatOf(ctx);
    if (chat === undefined) return next();
    const turn = await turns.take(chat, ctx.update.update_id);
    await opts.onTaken?.(ctx, turn);
    if (!turn.held) {
      opts.logger.warn(
        { chat, updateId: ctx.update.update_id },
        "the chat's turn was not free in time: handled out of turn",
      );
    }
    try {
      await next();
    } finally {
      await turn
        .release()
        .catch((err: unknown) =>
          opts.logger.warn(
            { chat, err: err instanceof Error ? err.message : String(err) },
            "the chat's turn was not released (it runs out by itself)",
          ),
        );
    }
  };
}
