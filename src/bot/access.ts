import { Keyboard } from "grammy";
import type { AccessVerdict } from "../accounts/index.ts";
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

/** The verdict for a user: may they order (the access mode's rule, src/accounts/access.ts)? */
export async function accessOf(deps: BotDeps, userId: number): Promise<AccessVerdict> {
  return deps.payment.access(userId);
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
