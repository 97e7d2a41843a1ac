import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { LOCALES_DIR } from "../../src/bot/i18n.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The locale folders the chat loads, as the composition root hands them to createI18n: the shared
 * locales/ and each built-in category's own (its module's localesDir).
 */
export const LOCALE_FOLDERS: readonly string[] = [
  LOCALES_DIR,
  ...CATEGORY_MODULES.flatMap((m) => (m.localesDir ? [m.localesDir] : [])),
];

/** A folder's path from the repository's root ("locales", "src/categories/mobile/locales"). */
export function folderName(dir: string): string {
  return relative(ROOT, dir).split("\\").join("/");
}

/** One language's file of one folder. */
export function localeFile(dir: string, locale: string): string {
  return readFileSync(join(dir, `${locale}.ftl`), "utf8");
}

/** One language's strings as the chat loads them: every folder's file, one after the other. */
export function localeText(locale: string): string {
  return LOCALE_FOLDERS.map((dir) => localeFile(dir, locale)).join("\n");
}
