import { createHash } from "node:crypto";
import { wordsOfCall } from "../telegram/words.ts";
import { type ApiAnswer, asApiError } from "./bot-api-failure.ts";
import { botApiFetch } from "./bot-api-fetch.ts";
import { chatCalls, type PassAs } from "./chat-calls.ts";
import { isFreshWaAccount, isWhatsAppChat, waIdOfChat } from "./chat-ids.ts";
import { seenHas, seenHash } from "./chat-record.ts";
import { type Shown, WINDOW_MS } from "./chat-store.ts";
import { typedCommands } from "./command-words.ts";
import { TEMPLATE_MISSING, WhatsAppApiError } from "./errors.ts";
import type { OwedReply } from "./owed-replies.ts";
import { heldSends } from "./rate-hold.ts";
import { buttonsKey, recorded } from "./router-put.ts";
import { failedResender, type ResendFailed } from "./router-resend.ts";
import { rowsOf, templateText, withLinks } from "./router-text.ts";
import type { Rendered, RenderInput, RouterDeps, WaSender } from "./router-types.ts";
import { renderedIn, templateLanguage } from "./template-language.ts";
import type { WaOutbound } from "./types.ts";
import { chatOfCallbackId } from "./update.ts";
import { messageOf } from "./withheld.ts";

/**
 * The bot's Bot API calls into WhatsApp chats, carried out on WhatsApp: the `fetch` of every Api
 * the bot uses (grammY's client option, which each conversation's Api copies), so the flows, the
 * pushes and the idle notices are written once, and a conversation's replay finds the call's
 * recorded answer as it does for Telegram (a transformer above the replay would send again). A
 * call into a Telegram chat goes on to the Bot API untouched.
 *
 * WhatsApp cannot edit: an edit that changes the text or adds buttons sends a new message, mapped
 * to the same chat message (a tap on it is a tap on that message); an edit that only takes buttons
 * away sends nothing (old buttons stay tappable there, and the flows already answer a tap on a
 * message that is no longer the question "no longer active"). Outside the customer's 24-hour
 * window, or when WhatsApp answers 131047, the message goes as the approved utility template.
 */

export type { ResendResult } from "./router-resend.ts";
export type { Rendered, RenderInput, RouterDeps, WaSender } from "./router-types.ts";

type Payload = Record<string, unknown>;

/**
 * A send's or an edit's words, its link buttons written under them, naming the words to type for
 * slash commands (command-words.ts).
 */
const textOf = (p: Payload) => withLinks(typedCommands(String(p.text ?? "")), p.reply_markup);

/** A short hash of a text, to remember that a message showed it. */
const textHash = (text: string) =>
  createHash("sha256").update(text).digest("base64url").slice(0, 12);
export interface WhatsAppRouter {
  /** The Bot API client's fetch: WhatsApp chats answered here, the rest by `real`. */
  fetchVia(real: typeof fetch): typeof fetch;
  /**
   * A message WhatsApp accepted and later reported `failed` with 131047 (the window had closed):
   * sent again as the template, in place of the same chat message. False when nothing was sent.
   */
  resendAsTemplate(chatId: number, wamid: string): Promise<boolean>;
  /**
   * A message WhatsApp accepted and later reported `failed` (late-resend.ts): its words sent again
   * in place of the same chat message, as the template (`template`, or outside the window) or
   * free-form. What came of it, and the wamids sent. A failed send throws as the client's does;
   * a failure before any send throws `NothingSent`; once a send went out nothing throws (a store
   * error after it is logged: the send counts).
   */
  resendFailed: ResendFailed;
  /**
   * An answer owed while a rate limit held it (router-owed.ts), sent as its chat message. A
   * failure before any send throws `NothingSent`; a send's failure throws as the client's does.
   */
  sendOwed(chatId: number, e: OwedReply): Promise<void>;
}

/** A failure after a message's first part went out: it may have arrived (never "sent nothing"). */
function partlySent(err: unknown): WhatsAppApiError {
  const e = asApiError(err);
  return new WhatsAppApiError(`part of the message sent, the rest failed: ${e.message}`, {
    status: typeof e.status === "number" ? e.status : 0,
    ...(e.code === undefined ? {} : { code: e.code }),
    mayHaveArrived: true,
  });
}

/**
 * Sending on WhatsApp: a rendering of a text and its buttons inside the customer's 24-hour window,
 * the approved template outside it (and when WhatsApp says the window closed: 131047).
 */
function outbound(deps: RouterDeps) {
  const { store, client } = deps;
  const open = (last: { at: number } | null) => last !== null && deps.now() - last.at < WINDOW_MS;
  async function inWindow(chatId: number): Promise<boolean> {
    // The message this process just handled says so without a read (the usual reply).
    return open(store.knownInbound(chatId)) || open(await store.lastInbound(chatId));
  }

  /** The template in Meta's language `code`, its one parameter `said`. */
  async function sendTemplate(to: string, code: string, said: string, signal?: AbortSignal) {
    const body: WaOutbound = {
      type: "template",
      template: {
        name: deps.template.name,
        language: { code, policy: "deterministic" },
        components: [{ type: "body", parameters: [{ type: "text", text: templateText(said) }] }],
      },
    };
    return (await client.send(to, body, signal ? { signal } : {})).wamid;
  }

  /**
   * The template's language for a person reading `locale`, and `text` as it carries it: in the
   * language the person reads when a template is approved in it (else English), its words in that
   * same language when the sender can render them again (template-language.ts).
   */
  function templateWords(locale: string, text: string) {
    const words = wordsOfCall();
    const { code, wordsIn } = templateLanguage(deps.template.languages, locale, words);
    // Words with their own template form (no buttons to speak of) say that one.
    if (words?.template) return { code, said: words.template(wordsIn ?? words.locale) };
    const again = wordsIn && words?.in ? { ...words, in: words.in } : undefined;
    return { code, said: again && wordsIn ? renderedIn(again, wordsIn, text) : text };
  }

  /**
   * The template (templateWords). Meta answering that it has no such template in that language
   * (132001: a WHATSAPP_TEMPLATE_LANGUAGES entry ahead of Meta's approval, or one withdrawn) sends
   * the English one instead, with the words rendered in English: a push in English beats none.
   * Words that cannot be rendered again are not put in the English template (its language would
   * not be theirs): the refusal stands, and the notifier tries again (a template refusal: a 503).
   */
  async function asTemplate(to: string, locale: string, text: string, signal?: AbortSignal) {
    const { code, said } = templateWords(locale, text);
    try {
      return await sendTemplate(to, code, said, signal);
    } catch (err) {
      const words = wordsOfCall();
      const english = deps.template.languages.en ?? "en_US";
      if (asApiError(err).code !== TEMPLATE_MISSING || code === english || !words?.in) throw err;
      deps.logger.error(
        { template: deps.template.name, language: code },
        "whatsapp has no approved template in this language; sent in English instead",
      );
      const inEnglish =
        words.template?.("en") ?? renderedIn({ ...words, in: words.in }, "en", text);
      return sendTemplate(to, english, inEnglish, signal);
    }
  }

  /**
   * Sends a rendering of `text` with `rows`; outside the window as the template. The wamids, and
   * `kept`: the words to keep for a template sent later in its place (a late `failed` 131047), when
   * the template would carry other words than these (a push rendered again in its language).
   */
  async function show(
    chatId: number,
    text: string,
    rows: RenderInput["rows"],
    signal?: AbortSignal,
  ): Promise<{ wamids: string[]; choices: Rendered["choices"]; kept?: string }> {
    const to = waIdOfChat(chatId) as string;
    const { locale, opener } = await deps.localeOf(chatId);
    if (!(await inWindow(chatId)))
      return { wamids: [await asTemplate(to, locale, text, signal)], choices: [] };
    const rendered = deps.render({ text, rows, opener });
    const wamids: string[] = [];
    for (const body of rendered.messages) {
      try {
        wamids.push((await client.send(to, body, signal ? { signal } : {})).wamid);
      } catch (err) {
        // A part went out: whatever the rest met, the customer may have the message (its lead).
        if (wamids.length > 0) throw partlySent(err);
        // The window closed without our knowing (the customer's clock is Meta's): the template.
        if (asApiError(err).code !== 131047) throw err;
        return { wamids: [await asTemplate(to, locale, text, signal)], choices: [] };
      }
    }
    const { said } = templateWords(locale, text);
    return { wamids, choices: rendered.choices, ...(said === text ? {} : { kept: said }) };
  }

  return { inWindow, asTemplate, show };
}

/**
 * A document (a receipt, a statement): uploaded as media, then sent as a `document` message with
 * the caption. Outside the window only the template can go, with the caption's words.
 */
function documentSender(deps: RouterDeps, out: ReturnType<typeof outbound>) {
  const { store, client } = deps;
  return async function sendDocument(
    chatId: number,
    p: Payload,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const file = p.document as { bytes?: unknown; filename?: unknown } | undefined;
    if (!(file?.bytes instanceof Uint8Array) || typeof file.filename !== "string")
      throw Object.assign(new Error("sendDocument: no uploaded file"), { status: 400 });
    const caption = typedCommands(String(p.caption ?? ""));
    const messageId = await store.nextMessageId(chatId);
    const to = waIdOfChat(chatId) as string;
    const { locale } = await deps.localeOf(chatId);
    let wamid: string;
    if (client.upload && (await out.inWindow(chatId))) {
      const mimeType = file.filename.endsWith(".pdf")
        ? "application/pdf"
        : "application/octet-stream";
      const { id } = await client.upload({ bytes: file.bytes, filename: file.filename, mimeType });
      const document = { id, filename: file.filename, ...(caption ? { caption } : {}) };
      wamid = (await client.send(to, { type: "document", document }, signal ? { signal } : {}))
        .wamid;
    } else wamid = await out.asTemplate(to, locale, caption || file.filename, signal);
    const shown: Shown = { text: caption, buttons: "", choices: [], seen: [seenHash(caption)] };
    await store.putShown(chatId, messageId, shown, [wamid]);
    const fileId = textHash(wamid);
    return {
      message_id: messageId,
      date: Math.floor(deps.now() / 1000),
      chat: { id: chatId, type: "private", first_name: "" },
      caption,
      document: { file_id: fileId, file_unique_id: fileId, file_name: file.filename },
    };
  };
}

/** `client` with its sends held after Meta's rate refusals (rate-hold.ts). */
function heldClient(c: WaSender, now: () => number): WaSender {
  const upload = c.upload?.bind(c);
  return {
    send: heldSends((to, body, opts) => c.send(to, body, opts), now),
    markRead: (wamid, typing) => c.markRead(wamid, typing),
    ...(upload ? { upload } : {}),
  };
}

export function whatsappRouter(input: RouterDeps): WhatsAppRouter {
  // Meta's rate limits hold WhatsApp's sends, never the notifier's reading (Telegram's pushes).
  const deps: RouterDeps = { ...input, client: heldClient(input.client, input.now) };
  const { store, client } = deps;

  const out = outbound(deps);
  const sendDocument = documentSender(deps, out);

  const { put, sendOwed } = recorded(deps, out, (d) => outbound(d));

  const message = (chatId: number, messageId: number, text: string) =>
    messageOf(deps, chatId, messageId, text);

  /** `signal`: the Bot API client gave up on the call (its bound); the sends are cut with it. */
  async function call(
    method: string,
    p: Payload,
    chatId: number,
    signal?: AbortSignal,
  ): Promise<unknown> {
    switch (method) {
      case "sendMessage": {
        // The id is taken as the message is recorded, after the send: one round trip fewer.
        const text = textOf(p);
        const messageId = await put(chatId, "new", text, rowsOf(p.reply_markup), null, signal);
        return message(chatId, messageId, text);
      }
      case "editMessageText":
      case "editMessageReplyMarkup": {
        const messageId = Number(p.message_id);
        const before = await store.shown(chatId, messageId);
        const text = method === "editMessageText" ? textOf(p) : (before?.text ?? "");
        const rows = rowsOf(p.reply_markup);
        // New words are sent; words the message showed before are not (a reason taken away, the
        // confirmation losing its buttons): WhatsApp still shows them above. Only the buttons
        // changing says nothing new (a message no longer kept included: it is not sent blank).
        const changed =
          method === "editMessageText" &&
          (before === null || (text !== before.text && !seenHas(before.seen, text)));
        const newButtons = rows.length > 0 && buttonsKey(rows) !== before?.buttons;
        if (changed || newButtons) await put(chatId, messageId, text, rows, before, signal);
        else if (before && rows.length === 0 && before.buttons) {
          // Only the buttons went: nothing to send; the message no longer counts as the one with them.
          await store.putShown(chatId, messageId, { ...before, buttons: "", choices: [] }, []);
        }
        return message(chatId, messageId, text);
      }
      case "sendDocument":
        return sendDocument(chatId, p, signal);
      case "answerCallbackQuery": {
        if (typeof p.text === "string" && p.text) {
          await put(chatId, "new", typedCommands(p.text), [], null, signal);
        }
        return true;
      }
      case "sendChatAction": {
        // The typing indicator rides on marking the customer's last message read: only the
        // instance that took that message knows its wamid (the one handling it, as a rule).
        const last = await store.lastInbound(chatId);
        if (last?.wamid && deps.now() - last.at < WINDOW_MS)
          await client.markRead(last.wamid, true).catch(() => {});
        return true;
      }
      case "getChat":
        return { id: chatId, type: "private", first_name: "" };
      default:
        // Deleting, pinning, reactions: WhatsApp has none; a sent message stays as it is.
        return true;
    }
  }

  /** The WhatsApp chat a call is for, if any. */
  function chatOf(method: string, p: Payload): number | null {
    const id = Number(p.chat_id);
    if (isWhatsAppChat(id)) return id;
    if (method === "answerCallbackQuery" && typeof p.callback_query_id === "string")
      return chatOfCallbackId(p.callback_query_id);
    return null;
  }

  const resendFailed = failedResender(deps, (d) => outbound(d));
  const resendAsTemplate = async (chatId: number, wamid: string) =>
    (await resendFailed(chatId, wamid, { template: true })).result === "sent";
  const { sent, freshAnswer } = chatCalls(deps, call, textOf);
  /** The answer to a Bot API call, or "pass" for one that is Telegram's. */
  async function answer(
    method: string,
    p: Payload,
    signal?: AbortSignal,
  ): Promise<ApiAnswer | "pass" | PassAs> {
    const account = Number(p.chat_id);
    if (isFreshWaAccount(account)) return freshAnswer(method, p, account, signal);
    const chatId = chatOf(method, p);
    const scoped = Number((p.scope as { chat_id?: unknown } | undefined)?.chat_id);
    if (chatId === null) {
      // A command menu for a WhatsApp person: WhatsApp has none (they type the words).
      if (isWhatsAppChat(scoped)) return { ok: true, result: true };
      if (deps.telegram) return "pass";
      return { ok: true, result: method === "getMe" ? deps.botInfo : true };
    }
    return sent(method, p, chatId, chatId, signal);
  }

  const fetchVia = botApiFetch(answer);

  return { fetchVia, resendAsTemplate, resendFailed, sendOwed };
}
