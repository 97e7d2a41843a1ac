import { AsyncLocalStorage } from "node:async_hooks";
import type { Context, MiddlewareFn } from "grammy";
import type { EarlyRead } from "../orders/limits.ts";

/**
 * The update's early read (prefetch.ts: the MGET the chat turn's take makes as the update starts)
 * for stores read by key during the update: the spend limits' buckets (orders/limits.ts), which a
 * flow reads before its first question and again before the confirmation. Each such read was a
 * command of its own; the keys cost nothing more in the MGET.
 *
 * A value is the key's as the update started, once its chat's turn was taken: as current as a read
 * a few milliseconds later, bar another chat's write in between (which a read later could miss as
 * well). A store drops the keys it writes (`drop`): later reads in the same update go to Redis.
 * Work the update left running after its middleware settled reads Redis too.
 */
interface Scope {
  peek(key: string): Promise<Buffer | null | undefined>;
  dropped: Set<string>;
  finished: boolean;
}

const running = new AsyncLocalStorage<Scope>();

/** Middleware: the rest of the update (conversations' replays included) reads through `peek`. */
export function earlyReadsInUpdate<C extends Context>(
  peek: (ctx: C, key: string) => Promise<Buffer | null | undefined>,
): MiddlewareFn<C> {
  return async (ctx, next) => {
    const scope: Scope = { peek: (key) => peek(ctx, key), dropped: new Set(), finished: false };
    try {
      await running.run(scope, next);
    } finally {
      scope.finished = true;
    }
  };
}

/** What a store is given (LimitSettings.early): the running update's early read, if any. */
export const updateEarlyRead: EarlyRead = {
  async read(key) {
    const scope = running.getStore();
    if (scope === undefined || scope.finished || scope.dropped.has(key)) return undefined;
    const value = await scope.peek(key);
    // Written (dropped) while the value was awaited: not current any more.
    return scope.finished || scope.dropped.has(key) ? undefined : value;
  },
  drop(keys) {
    const scope = running.getStore();
    if (scope) for (const key of keys) scope.dropped.add(key);
  },
};
