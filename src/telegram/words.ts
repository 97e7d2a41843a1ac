import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The language of the words a Bot API call carries, for a transport that must name it: the
 * WhatsApp router's template outside the 24-hour window is sent in one approved language, and its
 * words must be in that one. Held for the call (AsyncLocalStorage), so the Bot API payload stays
 * Telegram's own and Telegram never sees it.
 */
export interface Words {
  /** The locale the text was rendered in (en, ne, hi). */
  locale: string;
  /** The same words rendered in another locale, when the sender can (a push from its order). */
  in?: (locale: string) => string;
  /**
   * The words a template carries in place of these, in a locale: for words that speak of buttons
   * (a template has none), the same said without them (a reminder: "reply /history").
   */
  template?: (locale: string) => string;
}

const held = new AsyncLocalStorage<Words>();

/** Runs `call` (a Bot API call) with its words' language known to the transport. */
export const withWords = <T>(words: Words | undefined, call: () => Promise<T>): Promise<T> =>
  words ? held.run(words, call) : call();

/** The words' language of the Bot API call being carried out, if its sender said it. */
export const wordsOfCall = (): Words | undefined => held.getStore();
