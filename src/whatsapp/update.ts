import type { Update } from "grammy/types";
import type { WaInboundMessage } from "./types.ts";

/**
 * A customer's WhatsApp message as the update the chat engine handles: the flows are written once,
 * against the Bot API's shapes, and WhatsApp's messages become those shapes here (and the bot's
 * answers become WhatsApp messages in router.ts). A tap becomes a button press on the chat message
 * it was shown with; anything typed becomes a text message, with a command's entity when it is
 * one: WhatsApp has no command menu, so a bare command word ("balance", "status 123") and a
 * greeting ("hi") count as the command; a sentence that begins with one does not.
 */

/** Words that open the menu, as a customer greets a shop's number. */
const GREETINGS = new Set(["hi", "hello", "hey", "menu", "namaste", "namaskar", "नमस्ते", "नमस्कार"]);
/** A greeting's letters drawn out ("hii", "heyyy", "helloo"). */
const DRAWN_OUT = /^(?:hi+|he+y+|hel+o+)$/u;

/**
 * Whether `text` is a bare greeting: one of GREETINGS, its letters maybe drawn out, with
 * punctuation or emoji around it ("Hi!", "Namaste 🙏", "नमस्ते!"), and no other word (review
 * s32-whatsapp, 6: "Hi!" was "I did not understand that"). A word after it ("Hey Ram", "Namaste
 * ji", "Hi there") makes a sentence: at a question taking free text (a name, a complaint's words,
 * a customer id) it is the answer; read as /start it opened "Leave this?" (left s33, 3).
 */
function isGreeting(text: string): boolean {
  const [first = "", ...rest] = wordsOf(text);
  return rest.length === 0 && greets(first);
}

/** Whether `text` begins with a greeting and goes on ("Hi there", "Namaste ji", "Hey Ram"). */
export function opensWithGreeting(text: string): boolean {
  const [first = "", ...rest] = wordsOf(text);
  return rest.length > 0 && greets(first);
}

const greets = (word: string) => GREETINGS.has(word) || DRAWN_OUT.test(word);

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/u)
    .map((w) => w.replace(/[^\p{L}\p{M}\p{N}]/gu, ""))
    .filter((w) => w !== "");
}

/**
 * Words after a command word that read as its arguments: one word ("balance please", "status
 * 123"), or up to three whose first has a digit (a reference, a phone, a month, a code: "waid
 * 9779841234567 accept NP.1"). More is a sentence that happens to begin with a command word
 * ("Recharge was not received", "Credit entered twice"): an answer to the question being asked,
 * never the command (review s32-whatsapp, 5).
 */
const MAX_ARGS = 3;
const readAsArguments = (rest: string[]) =>
  rest.length <= 1 || (rest.length <= MAX_ARGS && /\d/.test(rest[0] ?? ""));

/** "/balance", "balance", "status 123" are commands; "Recharge was not received" is words. */
export function asCommand(text: string, commands: ReadonlySet<string>): string {
  const trimmed = text.trim();
  if (trimmed.startsWith("/")) return trimmed;
  const [first = "", ...rest] = trimmed.split(/\s+/);
  // "balance?", "Help!": the punctuation a sentence ends with is no part of the word.
  const word = first.toLowerCase().replace(/[?!.,;:।]+$/u, "");
  if (isGreeting(trimmed)) return "/start";
  if (commands.has(word) && readAsArguments(rest)) return [`/${word}`, ...rest].join(" ");
  return text;
}

export interface UpdateInput {
  updateId: number;
  chatId: number;
  /** Who the engine sees: the person the phone is registered to (one account on every channel). */
  personId: number;
  name: string;
  /** Unix seconds. */
  date: number;
  message: WaInboundMessage;
  /** A tap (or a typed number standing for one): the button's data and the message it was on. */
  tap?: { data: string; messageId: number };
  /** The chat message id of a typed message. */
  messageId: number;
  commands: ReadonlySet<string>;
}

export function updateOf(u: UpdateInput): Update {
  const chat = { id: u.chatId, type: "private" as const, first_name: u.name };
  const from = { id: u.personId, is_bot: false as const, first_name: u.name };
  if (u.tap) {
    return {
      update_id: u.updateId,
      // Only what a reader needs: a flow's conversation stores this update until the flow ends
      // (issue 31 target 6, bytes per open conversation). The chat travels in the id, which is
      // nothing else: answerCallbackQuery names no chat, and its text must reach one. No
      // `chat_instance`: nothing reads it (Telegram's is an opaque id of the chat, too).
      callback_query: {
        id: callbackId(u.chatId),
        from,
        data: u.tap.data,
        message: { message_id: u.tap.messageId, date: u.date, chat, text: "" },
      },
    } as Update;
  }
  // A file without a caption, a location, a contact card: no words, as a photo is on Telegram (the
  // flows answer "please answer with a text", fallbacks.ts what the bot reads); an empty text
  // was "I did not understand that" (review s32-whatsapp, 4).
  if (u.message.kind === "media" || u.message.kind === "other") {
    return {
      update_id: u.updateId,
      message: { message_id: u.messageId, date: u.date, chat, from },
    } as Update;
  }
  const text = asCommand(u.message.text ?? "", u.commands);
  const command = /^\/[A-Za-z0-9_]+/.exec(text)?.[0];
  return {
    update_id: u.updateId,
    message: {
      message_id: u.messageId,
      date: u.date,
      chat,
      from,
      text,
      ...(command
        ? { entities: [{ type: "bot_command", offset: 0, length: command.length }] }
        : {}),
    },
  } as Update;
}

const CALLBACK_PREFIX = "wa:";

/**
 * A tap's callback query id: the chat's id, nothing more. It carried the tap's wamid too, read by
 * nobody: 32 random characters that no compression shortens, kept in every stored conversation
 * that waited for a tap.
 */
export function callbackId(chatId: number): string {
  return `${CALLBACK_PREFIX}${chatId}`;
}

/**
 * The chat of a callback query id made by `callbackId` (or by its earlier form, the chat then
 * ":" and the wamid: still in conversations stored before); null for Telegram's own ids.
 */
export function chatOfCallbackId(id: string): number | null {
  const m = /^wa:(\d+)(?::|$)/.exec(id);
  return m ? Number(m[1]) : null;
}
