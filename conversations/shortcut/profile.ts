import type { Api } from "grammy";
import type { Translate } from "../../src/bot/i18n.ts";

/**
 * The bot's description (what an empty chat shows before /start) and short description (its
 * profile page and shared links), in the language of the command menu set beside them: English
 * as the default for every language without its own, Nepali and Hindi for theirs.
 */
export async function setProfileTexts(
  api: Api,
  t: Translate,
  lang: NonNullable<Parameters<Api["setMyDescription"]>[1]>,
): Promise<void> {
  await api.setMyDescription(t("bot-description"), lang);
  await api.setMyShortDescription(t("bot-short-description"), lang);
}
