/**
 * A typed row number ("3", " 3 ", "३") read as a tap on the numbered list row it names. WhatsApp
 * lists open behind a button, so typing the number shown in front of a row is the quicker way;
 * the renderer numbers rows only when no label reads as an amount, so a typed "3" on an amount
 * question never reaches here with choices to match.
 */

/** One numbered row: typing `n` means the button whose callback data is `data`. */
export interface NumberedChoice {
  n: number;
  data: string;
  label: string;
}

const DEVANAGARI_ZERO = 0x0966;

/** Devanagari digits (०-९) as ASCII digits; other characters unchanged. */
function asciiDigits(text: string): string {
  return text.replace(/[\u0966-\u096F]/gu, (d) =>
    String((d.codePointAt(0) ?? DEVANAGARI_ZERO) - DEVANAGARI_ZERO),
  );
}

/**
 * The callback data of the row numbered `text` (spaces around allowed, and the "." or ")" a row's
 * number is shown with: "3." as the row reads "3. Wrong amount"), or null.
 */
export function typedChoice(text: string, choices: readonly NumberedChoice[]): string | null {
  if (choices.length === 0) return null;
  const digits = asciiDigits(text.trim().replace(/^(\S+?)\s*[.)]$/u, "$1"));
  if (!/^\d{1,3}$/.test(digits)) return null;
  const n = Number(digits);
  return choices.find((c) => c.n === n)?.data ?? null;
}
