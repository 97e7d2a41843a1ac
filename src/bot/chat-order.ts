import type { Context, MiddlewareFn } from "grammy";
import type { Logger } from "../logger.ts";
import { type ChatTurns, epochKey, type HeldTurn } from "../redis/chat-turns.ts";
import type { Prefetch } from "./prefetch.ts";

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
    if (!turn.held) {
      opts.logger.warn(
        { chat, updateId: ctx.update.update_id },
        "the chat's turn was not free in time: handled out of turn",
      );
    }
    // Released whatever happens once taken: a held turn is renewed until released, so one left
    // behind would block the chat for good (every later update waiting maxWaitMs).
    try {
      await opts.onTaken?.(ctx, turn);
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

/**
 * `onTaken` for a bot whose session and conversation state are read early (prefetch.ts, which
 * must read `epochKey` of the chat with them): the early read holds only if the turn was free at
 * once and no turn of the chat ended between the read and the take (same epoch); else it is
 * dropped and the adapters read Redis.
 */
export function dropStaleReads<C extends Context>(
  prefetch: Prefetch,
  prefix: string,
  chatOf: (ctx: C) => string | undefined,
): (ctx: C, turn: HeldTurn) => Promise<void> {
  return async (ctx, turn) => {
    const chat = chatOf(ctx);
    const read = chat === undefined ? undefined : await prefetch.take(epochKey(prefix, chat));
    if (turn.tries > 1 || read === undefined || String(read ?? "0") !== turn.epoch)
      prefetch.stale(ctx.update.update_id);
  };
}
