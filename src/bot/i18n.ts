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
export function createI18n<C extends Context>(negotiate: (ctx: C) => Locale | Promise<Locale>) {
  const i18n = new I18n<C>({
    defaultLocale: DEFAULT_LOCALE,
    directory: LOCALES_DIR,
    // Unicode isolation marks around variables break copying numbers out of messages.
    fluentBundleOptions: { useIsolating: false },
    localeNegotiator: negotiate,
  });
  return i18n;
}

export function translator(i18n: I18n<never> | I18n<Context>, locale: string): Translate {
  const t = (key: string, params?: Record<string, string | number>) => i18n.t(locale, key, params);
  return Object.assign(t, { locale: isLocale(locale) ? locale : DEFAULT_LOCALE });
}
