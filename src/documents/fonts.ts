import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * The typeface every document is set in: Noto Sans Devanagari (SIL Open Font License 1.1), as the
 * npm package @expo-google-fonts/noto-sans-devanagari ships it: whole TrueType files with the
 * Devanagari, Latin digits and letters, ₹ and the punctuation our receipts use, in one font, so a
 * Nepali or Hindi line that carries a reference or an amount needs no font switching. pdfkit reads
 * it with fontkit, which shapes Devanagari (conjuncts, reordered vowel signs) through the font's
 * OpenType tables.
 */
const require = createRequire(import.meta.url);
const PACKAGE = "@expo-google-fonts/noto-sans-devanagari";

export interface DocumentFonts {
  regular: Uint8Array;
  bold: Uint8Array;
}

let loaded: DocumentFonts | undefined;

/** The fonts, read once from the package (about 220 KB each; only the glyphs used are embedded). */
export function documentFonts(): DocumentFonts {
  loaded ??= {
    regular: readFileSync(
      require.resolve(`${PACKAGE}/400Regular/NotoSansDevanagari_400Regular.ttf`),
    ),
    bold: readFileSync(require.resolve(`${PACKAGE}/700Bold/NotoSansDevanagari_700Bold.ttf`)),
  };
  return loaded;
}
