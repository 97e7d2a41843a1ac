import type { MiddlewareFn } from "grammy";
import { formatPhone } from "../../src/accounts/index.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { DEFAULT_LOCALE, translator } from "../../src/bot/i18n.ts";
import { recycledOf } from "../../src/whatsapp/held.ts";
import { theirs } from "./link.ts";

/**
 * The message that opened a fresh account for a recycled WhatsApp number's new holder
 * (whatsapp/inbound.ts `ownAccount`): the holder is told, plainly, that the number's earlier
 * account is not theirs and that they start fresh, and every admin is alerted (in their own chat
 * and language, as a new complaint is) so support can settle it. Told once: only that message
 * opens the account; the next ones read the new owner. Then the message is handled as usual.
 */
export function recycledNotice(deps: BotDeps): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const r = recycledOf(ctx.update);
    if (!r) return next();
    const phone = formatPhone(r.phone);
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    await ctx.reply(t("wa-recycled-fresh", { phone }));
    const english = translator(deps.i18n, DEFAULT_LOCALE);
    for (const admin of deps.settings.adminIds) {
      const there = await theirs(deps, admin, english);
      const text = there("wa-recycled-admin", { phone, from: String(r.from), to: String(r.to) });
      // One admin's blocked chat does not keep the others from hearing.
      await ctx.api.sendMessage(admin, text).catch((err: unknown) => {
        deps.logger.warn({ admin, err: String(err) }, "recycled-number alert not sent");
      });
    }
    return next();
  };
}
