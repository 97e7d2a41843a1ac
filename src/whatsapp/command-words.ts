/**
 * WhatsApp has no command menu: a customer types a command's word bare ("balance", "status 123"),
 * read as the command (update.ts `asCommand`), and the bot's texts, written once with Telegram's
 * slash commands, name those words there instead (`typedCommands`). One list serves both, so a
 * text never names a word that typing would not run.
 */

/** Every command the bot answers, typed bare on WhatsApp ("balance" works like "/balance"). */
export const WHATSAPP_COMMANDS: ReadonlySet<string> = new Set([
  "start",
  "recharge",
  "balance",
  "register",
  "addmoney",
  "status",
  "history",
  "saved",
  "language",
  "help",
  "cancel",
  "cashin",
  "credit",
  "reverse",
  "books",
  "topups",
  "waid",
  "dashboard",
  "myqr",
  "shopqr",
  "complain",
  "complaints",
  "statement",
  "reminders",
  "settle",
  "writeoff",
]);

/**
 * A slash command at a word's start ("(/balance)", not a URL's "/status"), and its argument when
 * the next word has a digit (a month, a phone, a reference: "/history 2026-10"), as asCommand
 * reads one.
 */
const SLASH_COMMAND = /(^|[\s("'“«])\/([a-z]+)(?![\w@/])( \S*\d\S*)?/gu;
/** Punctuation that ends the sentence, not the argument ("/settle 123."). */
const TRAILING = /[.,;:!?)।]+$/u;
/** A command the text tells to send on Telegram ("send /myqr on Telegram") stays Telegram's. */
const TELEGRAM = /telegram|टेलि?ग्राम|टेलीग्राम/iu;
const NEAR = 16;

/**
 * `text` with the slash commands WhatsApp reads typed bare written as the words to type, quoted
 * with their argument: 'Send "recharge"', 'check "history"', '"history 2026-10" shows one month'.
 * Commands WhatsApp does not read bare stay as they are (typed with the slash, they still work).
 */
export function typedCommands(text: string): string {
  if (!text.includes("/")) return text;
  return text.replace(
    SLASH_COMMAND,
    (all: string, before: string, word: string, arg: string | undefined, at: number) => {
      if (!WHATSAPP_COMMANDS.has(word)) return all;
      const around = text.slice(Math.max(0, at - NEAR), at + all.length + NEAR);
      if (TELEGRAM.test(around)) return all;
      const rest = arg ?? "";
      const tail = TRAILING.exec(rest)?.[0] ?? "";
      return `${before}"${word}${rest.slice(0, rest.length - tail.length)}"${tail}`;
    },
  );
}
