import type { Words } from "../telegram/words.ts";

/**
 * Which approved language the template goes in, and which language its words must then be in.
 * `languages`: WHATSAPP_TEMPLATE_LANGUAGES, the product's locale to Meta's code of a template
 * approved in it (`en` always there: the fallback); a locale without one, or mapped to another
 * language's code (`ne:en_US`: Meta has no Nepali), gets that code, English by default.
 *
 *  - The person's language decides the template (as for every other message to them), and words
 *    the sender can render again (a push, from its order) are rendered in the template's language:
 *    a Nepali speaker gets `ne` with Nepali words when a Nepali template is approved, else `en_US`
 *    with English words, never an English template around Nepali words or the reverse.
 *  - Words that cannot be rendered again but say their language (an admin alert, in English)
 *    choose the template themselves.
 *  - Words that say nothing (a flow's reply, a stored message sent again) go in the person's.
 */
export function templateLanguage(
  languages: Record<string, string>,
  personLocale: string,
  words: Words | undefined,
): { code: string; wordsIn?: string } {
  const codeOf = (locale: string) => languages[locale] ?? languages.en ?? "en_US";
  if (words && !words.in) return { code: codeOf(words.locale) };
  const code = codeOf(personLocale);
  if (!words?.in) return { code };
  // Meta's code names the language (en_US: en); the words follow it.
  const wordsIn = code.split("_")[0] ?? personLocale;
  return wordsIn === words.locale ? { code } : { code, wordsIn };
}

/**
 * The words of `text` rendered again in `locale`, with the lines the router wrote under them kept
 * (withLinks: a link button's "label: url", which a template's one parameter carries too): what
 * follows the words as they were rendered (`words.in(words.locale)`) is added to the new ones.
 */
export function renderedIn(
  words: Required<Pick<Words, "locale" | "in">>,
  locale: string,
  text: string,
): string {
  const own = words.in(words.locale);
  const tail = text.startsWith(own) ? text.slice(own.length) : "";
  return `${words.in(locale)}${tail}`;
}
