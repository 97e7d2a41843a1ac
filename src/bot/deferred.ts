import type { Context, MiddlewareFn } from "grammy";

/**
 * Writes an update starts that need to be finished only when the update is: the idle deadline a
 * question arms (prompt-loop.ts) goes out while the conversation state is saved, in one round
 * trip instead of two, and the update is not done (nor its claim marked done) until both are.
 * A failed write fails the update as before, only after the state was saved.
 */
const DEFERRED = Symbol("deferred writes");
type Holder = { [DEFERRED]?: Array<Promise<unknown>> };

/**
 * Hands `work` to the running update's `settleDeferred`; without one (a context it does not
 * cover) it is simply awaited here.
 */
export function finishWithUpdate(ctx: object, work: Promise<unknown>): Promise<unknown> {
  const pending = (ctx as Holder)[DEFERRED];
  if (pending === undefined) return work;
  // Awaited below; a rejection is not unhandled meanwhile.
  work.catch(() => {});
  pending.push(work);
  return Promise.resolve();
}

/** Awaits, once everything after it ran, what was handed to `finishWithUpdate`. */
export function settleDeferred<C extends Context>(): MiddlewareFn<C> {
  return async (ctx, next) => {
    const pending: Array<Promise<unknown>> = [];
    Object.defineProperty(ctx, DEFERRED, { value: pending, configurable: true });
    try {
      await next();
    } catch (err) {
      await Promise.allSettled(pending);
      throw err;
    }
    // Every write, even after one failed; then the first failure fails the update.
    const results = await Promise.allSettled(pending);
    for (const r of results) if (r.status === "rejected") throw r.reason;
  };
}
