import { Composer, InlineKeyboard } from "grammy";
import { languageButton } from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { LOCALES, type Locale, translator } from "../../src/bot/i18n.ts";

/** Every locale, each named in itself (also offered in the middle of a flow, by its wait loop). */
export function languageKeyboard(deps: BotDeps): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const l of LOCALES)
    kb.text(translator(deps.i18n, l)("language-name"), languageButton.build(l));
  return kb;
}

/**
 * A language the user chose: kept in the session (this chat's texts) and beside their account,
 * where pushes that someone else's action sends them (a cash-in's receipt) read it.
 */
export async function keepLocale(deps: BotDeps, ctx: BotContext, locale: Locale): Promise<void> {
  ctx.session.locale = locale;
  if (ctx.from) await deps.accounts.setLocale(ctx.from.id, locale);
}

/** /language offers every locale, each named in itself; the choice is kept (keepLocale). */
export function language(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const priv = composer.chatType("private");
  priv.command("language", (ctx) =>
    ctx.reply(ctx.t("language-prompt"), { reply_markup: languageKeyboard(deps) }),
  );
  priv.on("callback_query:data", async (ctx, next) => {
    const locale = languageButton.parse(ctx.callbackQuery.data);
    if (locale === null) return next();
    await ctx.answerCallbackQuery();
    await keepLocale(deps, ctx, locale);
    await ctx.i18n.renegotiateLocale();
    await ctx.editMessageText(ctx.t("language-set"));
  });
  return composer;
}
