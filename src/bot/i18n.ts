import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { I18n } from "@grammyjs/i18n";
import type { Context } from "grammy";

export const LOCALES = ["en", "ne", "hi"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

// No trailing slash: the i18n loader derives the locale from the path after the directory.
export const LOCALES_DIR = fileURLToPath(new URL("../../locales", import.meta.url));

export function isLocale(v: unknown): v is Locale {
  return typeof v === "string" && (LOCALES as readonly string[]).includes(v);
}

/** Telegram's language_code ("ne", "hi-IN", "en-US") to one of ours, English otherwise. */
export function localeFromLanguageCode(code: string | undefined): Locale {
  const base = code?.toLowerCase().split("-")[0];
  return isLocale(base) ? base : DEFAULT_LOCALE;
}

/** A translation function that knows its locale (amounts are written per language: formatMoney). */
export type Translate = ((key: string, params?: Record<string, string | number>) => string) & {
  readonly locale: Locale;
};

/**
 * The Fluent translations. The locale is negotiated from the session (set by /language) or from
 * Telegram's language code; conversations get the locale passed explicitly, because i18n's session
 * negotiation falls back to the default locale inside them.
 */
export function createI18n<C extends Context>(
  negotiate: (ctx: C) => Locale | Promise<Locale>,
  /** More locale folders ({en,ne,hi}.ftl each): a category's own strings, in its folder. */
  extraDirs: readonly string[] = [],
) {
  const i18n = new I18n<C>({
    defaultLocale: DEFAULT_LOCALE,
    // Unicode isolation marks around variables break copying numbers out of messages.
    fluentBundleOptions: { useIsolating: false },
    localeNegotiator: negotiate,
  });
  // One bundle per language: the shared strings, then each category's own (a folder may lack one).
  for (const locale of LOCALES) {
    const sources = [LOCALES_DIR, ...extraDirs]
      .map((dir) => join(dir, `${locale}.ftl`))
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file, "utf8"));
    i18n.loadLocaleSync(locale, { source: sources.join("\n") });
  }
  latinNumbers(i18n);
  memoizeBundleMatching(i18n);
  return i18n;
}

/**
 * Money (formatMoney), references and phone numbers are written in Latin digits in every
 * language, so every number a message carries is too: Intl's Nepali writes numbers in Devanagari
 * digits, which put a count "१२" beside "रु 1,000" in one message. Each bundle formats with its
 * language's Latin-digit form first ("ne-u-nu-latn": the same plural rules); the plain name stays,
 * so the language is still found by it.
 */
function latinNumbers(i18n: I18n<never>): void {
  const fluent = i18n.fluent as unknown as { bundles: Set<{ locales: string[] }> };
  for (const bundle of fluent.bundles) {
    const [name] = bundle.locales;
    if (name && !name.includes("-u-")) bundle.locales.unshift(`${name}-u-nu-latn`);
  }
}

/** Locale lists remembered at most; ours are a handful (LOCALES, Telegram's codes). */
const MATCHED_LOCALES_KEPT = 64;

/**
 * @grammyjs/i18n negotiates the bundles (@fluent/langneg) on every `t` call: a replayed flow
 * step translates its buttons and prompts again on every update, so this was 2% of the bot's
 * CPU. The bundles only change when a translation is added, so each locale's match is kept
 * until then.
 */
function memoizeBundleMatching(i18n: I18n<never>): void {
  const fluent = i18n.fluent as unknown as {
    bundles: Set<unknown>;
    matchBundles(locales: string[]): Set<unknown>;
  };
  const match = fluent.matchBundles.bind(fluent);
  const matched = new Map<string, Set<unknown>>();
  let bundles = fluent.bundles.size;
  fluent.matchBundles = (locales) => {
    if (fluent.bundles.size !== bundles || matched.size >= MATCHED_LOCALES_KEPT) {
      matched.clear();
      bundles = fluent.bundles.size;
    }
    const key = locales.join("\n");
    let found = matched.get(key);
    if (found === undefined) {
      found = match(locales);
      matched.set(key, found);
    }
    return found;
  };
}

export function translator(i18n: I18n<never> | I18n<Context>, locale: string): Translate {
  const t = (key: string, params?: Record<string, string | number>) => i18n.t(locale, key, params);
  return Object.assign(t, { locale: isLocale(locale) ? locale : DEFAULT_LOCALE });
}
