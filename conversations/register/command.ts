import { Composer, type Context } from "grammy";
import { formatPhone, type Phone, phoneFromContact } from "../../src/accounts/index.ts";
import { contactKeyboard } from "../../src/bot/access.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { type Translate, translator } from "../../src/bot/i18n.ts";
import { telegramIdOf } from "../../src/bot/person.ts";
import { isWhatsAppAccount } from "../../src/whatsapp/chat-ids.ts";
import { offerLink, type Send } from "./link.ts";

/**
 * Registration: the user shares their own phone contact (Telegram's request_contact button), and
 * that number becomes the account's identity, the one an agent types for a cash-in. A contact
 * whose user_id is not the sender's (someone else's card, forwarded or typed in) is refused: only
 * Telegram's own share carries the sender's id.
 */
export function register(
  deps: BotDeps,
  /** What follows a registration (issue 30: the shop whose QR code was scanned first). */
  onRegistered: (ctx: BotContext) => Promise<void> = async () => {},
): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const priv = composer.chatType("private");
  priv.command("register", async (ctx) => {
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    const phone = await deps.accounts.phoneOf(ctx.from.id);
    const known = phone ? `${t("register-already", { phone: formatPhone(phone) })}\n\n` : "";
    // Staff mode: registering lets nobody order, and no shop takes cash for a balance there.
    const prompt = deps.payment.mode === "prepaid" ? "register-prompt" : "register-prompt-staff";
    await ctx.reply(`${known}${t(prompt)}`, { reply_markup: contactKeyboard(t) });
  });
  priv.on("message:contact", async (ctx) => {
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    const send: Send = (chatId, text) => ctx.api.sendMessage(chatId, text);
    const answer = await registerContact(deps, t, sharerOf(ctx), send);
    await ctx.reply(answer.text, { reply_markup: answer.markup });
    if (answer.registered) await onRegistered(ctx);
  });
  return composer;
}

/** Who shared a contact, and what: read from the update (its Telegram sender before any link). */
export interface Sharer {
  fromId: number;
  telegramId: number;
  firstName: string;
  lastName?: string;
  username?: string;
  contact: { phone_number: string; user_id?: number };
}

/** The sharer of a contact message (undefined for anything else). */
export function sharerOf(ctx: Context): Sharer | undefined {
  const contact = ctx.message?.contact;
  const from = ctx.from;
  if (!contact || !from) return undefined;
  return {
    fromId: from.id,
    telegramId: telegramIdOf(ctx) ?? from.id,
    firstName: from.first_name,
    ...(from.last_name ? { lastName: from.last_name } : {}),
    ...(from.username ? { username: from.username } : {}),
    contact: {
      phone_number: contact.phone_number,
      ...(contact.user_id !== undefined ? { user_id: contact.user_id } : {}),
    },
  };
}

/** What registering a shared contact answers: the text and the keyboard under it. */
export interface RegisterAnswer {
  text: string;
  markup: ReturnType<typeof contactKeyboard> | { remove_keyboard: true };
  /** A new registration of the sharer's own number (not a refusal, not a link). */
  registered?: boolean;
}

/**
 * Registers the sharer with the contact's number, or says why not (someone else's card, a number
 * that is no phone, a WhatsApp account's). The same wherever the contact is shared: as an answer
 * to /register, out of the blue, or while a flow waits for an answer (aside.ts).
 */
export async function registerContact(
  deps: BotDeps,
  t: Translate,
  who: Sharer | undefined,
  /** How the link's code reaches the WhatsApp chat of a number registered there. */
  send: Send,
): Promise<RegisterAnswer> {
  const retry = (key: string): RegisterAnswer => ({ text: t(key), markup: contactKeyboard(t) });
  const done = (text: string): RegisterAnswer => ({ text, markup: { remove_keyboard: true } });
  if (!who || who.contact.user_id !== who.telegramId) return retry("register-not-yours");
  const phone = phoneFromContact(who.contact.phone_number);
  if (!phone) return retry("register-bad-number");
  if (who.telegramId !== who.fromId) {
    // Linked to a WhatsApp account: its number is its identity and does not move from here.
    const own = await deps.accounts.phoneOf(who.fromId);
    // None: support released its number (/waid release), which has a new holder now.
    if (own === null) return done(t("register-linked-released"));
    return done(t("register-linked", { phone: formatPhone(own) }));
  }
  const owner = await deps.accounts.userByPhone(phone);
  if (owner !== null && owner !== who.fromId && isWhatsAppAccount(owner)) {
    const asker = [
      [who.firstName, who.lastName].filter(Boolean).join(" "),
      who.username ? `@${who.username}` : "",
    ]
      .filter(Boolean)
      .join(" ");
    return done(
      await linkToWhatsApp(deps, t, send, { telegramId: who.telegramId, owner, phone, asker }),
    );
  }
  const name = [who.firstName, who.lastName].filter(Boolean).join(" ");
  await deps.accounts.register(who.fromId, phone, {
    name,
    ...(who.username ? { username: who.username } : {}),
    channel: "telegram",
  });
  // The language of the pushes others' actions send them (a cash-in's receipt): the one they
  // chose with /language, else Telegram's (what this chat negotiated).
  await deps.accounts.setLocale(who.fromId, t.locale);
  deps.logger.info({ userId: who.fromId }, "customer registered");
  // In staff mode nobody has a balance a shop could add to: the number is all that is said.
  const key = deps.payment.mode === "prepaid" ? "register-done" : "register-done-staff";
  return { ...done(t(key, { phone: formatPhone(phone) })), registered: true };
}

/**
 * The number already is an account on WhatsApp (WhatsApp verified who holds it now). A Telegram
 * contact proves only that this Telegram account carries the number, which Telegram never checks
 * again (a recycled SIM stays on its old holder's account): so this chat is not joined on the
 * number, but offered a code sent to that WhatsApp chat, to type here (link/link.ts). Staff and a
 * Telegram user with an account of their own are refused (link.ts `linkRefusal`).
 */
async function linkToWhatsApp(
  deps: BotDeps,
  t: Translate,
  send: Send,
  who: { telegramId: number; owner: number; phone: Phone; asker: string },
): Promise<string> {
  return offerLink(deps, t, send, {
    channelId: who.telegramId,
    personId: who.owner,
    phone: who.phone,
    asker: who.asker,
  });
}
