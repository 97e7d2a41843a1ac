import {
  asciiDigits,
  detectOperator,
  NTC_LINE_PREFIXES,
  normalizeIndiaNumber,
  validateAccountId,
  validateIndiaMobile,
  validateMobileNumber,
} from "../../src/catalog/index.ts";

/**
 * What a message that is only a number or an account id is (issue 30, "shortcuts"): the
 * categories that could take it, most likely first, and the number as that category asks it.
 * A Nepal mobile goes to the mobile top-up (NTC) or the data packs (Ncell, which recharges with
 * packs); "+91" or a 10-digit number outside Nepal's series to India; letters and digits (a TV
 * box, an internet username) could be several: the caller asks which. Anything with spaces
 * between words, a command, an amount-sized number: not a shortcut.
 */
export interface Shortcut {
  number: string;
  categories: readonly string[];
}

const ALL_NTC = [
  ...NTC_LINE_PREFIXES.prepaid,
  ...NTC_LINE_PREFIXES.postpaid,
  ...NTC_LINE_PREFIXES.cdma,
];

/** How a phone number is typed: digits with +, spaces, dashes, dots, brackets. */
const PHONE_LIKE = /^\+?[0-9][0-9\s\-–.()]{6,22}$/;
/** A customer id or username: one word of letters and digits (with a digit), 6 to 40 long. */
const ACCOUNT_LIKE = /^(?=.*[0-9])[A-Za-z0-9][A-Za-z0-9@._\-/]{5,39}$/;
/** Categories whose first typed answer is an account id (after the operator). */
export const ACCOUNT_CATEGORIES = ["dth", "internet"] as const;

export function classify(input: string): Shortcut | null {
  const text = asciiDigits(input).trim();
  if (text === "" || text.startsWith("/")) return null;
  if (PHONE_LIKE.test(text)) {
    const compact = text.replace(/[\s\-–.()]/g, "");
    const india = validateIndiaMobile(text);
    if (/^(\+91|0091)/.test(compact) && india.ok) {
      return { number: india.value, categories: ["india"] };
    }
    const nepal = validateMobileNumber(text, ALL_NTC);
    if (nepal.ok) return { number: nepal.value, categories: ["mobile"] };
    if (detectOperator(text) === "ncell") {
      const ncell = validateMobileNumber(text, ["980", "981", "982", "970"]);
      if (ncell.ok) return { number: ncell.value, categories: ["datapack"] };
    }
    if (india.ok && normalizeIndiaNumber(text)?.length === 10) {
      return { number: india.value, categories: ["india"] };
    }
  }
  const account = validateAccountId(text);
  if (account.ok && ACCOUNT_LIKE.test(account.value)) {
    return { number: account.value, categories: ACCOUNT_CATEGORIES };
  }
  return null;
}
