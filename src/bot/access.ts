import { AsyncLocalStorage } from "node:async_hooks";
import { type Context, Keyboard, type MiddlewareFn } from "grammy";
import { type AccessVerdict, accessFlagWrites } from "../accounts/index.ts";
import type { BotContext } from "./context.ts";
import type { BotDeps } from "./deps.ts";
import { type Translate, translator } from "./i18n.ts";

/**
 * What the chat says to someone who may not spend (ACCESS_MODE): in prepaid mode an unregistered
 * user is asked to register, with the button that shares their own phone contact; in staff mode
 * an unlisted user is told the bot is private. The checkout asks the same before every order
 * (checkout.ts), so nothing is spent whichever way an order is reached.
 */

/** The reply keyboard whose one button shares the user's own contact (Telegram asks them first). */
export function contactKeyboard(t: Translate): Keyboard {
  return new Keyboard().requestContact(t("register-button")).resized().oneTime();
}

export function deniedReply(
  t: Translate,
  verdict: Exclude<AccessVerdict, "ok">,
): { text: string; other: { reply_markup?: Keyboard } } {
  if (verdict === "private") return { text: t("access-private"), other: {} };
  // Blocked by the merchant (the back office): no way forward from the chat, no keyboard.
  if (verdict === "blocked") return { text: t("access-blocked"), other: {} };
  return { text: t("access-register"), other: { reply_markup: contactKeyboard(t) } };
}

/**
 * The access check's view of the running update: its early read of a user's access flags (the
 * MGET that starts the update, src/accounts/access-flags.ts) and the verdicts given so far, so
 * that a step that checks twice (the menu's gate, then the flow's balance weighing) reads once.
 */
interface UpdateAccess {
  early(userId: number): Promise<Buffer | null | undefined>;
  verdicts: Map<number, Promise<AccessVerdict>>;
  /** This process's flag writes as the update started (accessFlagWrites). */
  writes: number;
  /** The update's middleware settled: work it left running checks afresh. */
  finished: boolean;
}

const running = new AsyncLocalStorage<UpdateAccess>();

/**
 * Middleware: every access check in the rest of the update (conversations' replays included) uses
 * `early` and keeps its verdict for the update. A block made while the update runs holds from the
 * next update on (as a block made just after a check always did).
 */
export function accessInUpdate<C extends Context>(
  early: (ctx: C, userId: number) => Promise<Buffer | null | undefined>,
): MiddlewareFn<C> {
  return async (ctx, next) => {
    const scope: UpdateAccess = {
      early: (userId) => early(ctx, userId),
      verdicts: new Map(),
      writes: accessFlagWrites(),
      finished: false,
    };
    try {
      await running.run(scope, next);
    } finally {
      scope.finished = true;
    }
  };
}

/** The verdict for a user: may they order (the access mode's rule, src/accounts/access.ts)? */
export function accessOf(deps: BotDeps, userId: number): Promise<AccessVerdict> {
  const scope = running.getStore();
  // Work the update left running (a timer, a promise it did not await) is no part of it.
  const update = scope?.finished ? undefined : scope;
  // Registered (or blocked) by this process since the update began (a contact shared in this
  // very update): what was read or said before is not used any more.
  if (update && update.writes !== accessFlagWrites()) {
    update.early = async () => undefined;
    update.verdicts.clear();
    update.writes = accessFlagWrites();
  }
  if (!update) return deps.payment.access(userId);
  const known = update.verdicts.get(userId);
  if (known) return known;
  const verdict = update.early(userId).then((early) => deps.payment.access(userId, early));
  update.verdicts.set(userId, verdict);
  // A failed read is not kept: the next check asks again.
  verdict.catch(() => update.verdicts.delete(userId));
  return verdict;
}

/** The menu's gate (conversations/menu/): tells a user who may not order why, before any flow. */
export function orderGate(deps: BotDeps): (ctx: BotContext) => Promise<boolean> {
  return async (ctx) => {
    const verdict = await accessOf(deps, ctx.from?.id ?? 0);
    if (verdict === "ok") return true;
    const denied = deniedReply(translator(deps.i18n, await ctx.i18n.getLocale()), verdict);
    await ctx.reply(denied.text, denied.other);
    return false;
  };
}
