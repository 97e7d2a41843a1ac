import { languageButton } from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { Aside } from "../../src/bot/flow/toolkit.ts";
import { keepLocale, languageKeyboard } from "./command.ts";

/**
 * /language in the middle of a flow offers the locales; a button pressed keeps the choice for the
 * chat, and the flow goes on in it.
 */
export const languageAside: Aside = {
  commands: ["language"],
  async answer(s, u) {
    await u.reply(s.t("language-prompt"), { reply_markup: languageKeyboard(s.deps) });
  },
  async onButton(s, u, data) {
    const locale = languageButton.parse(data);
    if (locale === null) return false;
    await u.answerCallbackQuery();
    await s.conversation.external((outer: BotContext) => keepLocale(s.deps, outer, locale));
    s.setLocale(locale);
    await u.editMessageText(s.t("language-set"));
    return true;
  },
};
