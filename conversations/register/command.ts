import { Composer } from "grammy";
import { formatPhone, type Phone, phoneFromContact } from "../../src/accounts/index.ts";
import { contactKeyboard } from "../../src/bot/access.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { type Translate, translator } from "../../src/bot/i18n.ts";
import { telegramIdOf } from "../../src/bot/person.ts";
import { isWhatsAppChat } from "../../src/whatsapp/chat-ids.ts";

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
    await ctx.reply(`${known}${t("register-prompt")}`, { reply_markup: contactKeyboard(t) });
  });
  priv.on("message:contact", async (ctx) => {
    const locale = await ctx.i18n.getLocale();
    const t = translator(deps.i18n, locale);
    const contact = ctx.message.contact;
    const telegramId = telegramIdOf(ctx) ?? ctx.from.id;
    if (contact.user_id !== telegramId) {
      await ctx.reply(t("register-not-yours"), { reply_markup: contactKeyboard(t) });
      return;
    }
    const phone = phoneFromContact(contact.phone_number);
    if (!phone) {
      await ctx.reply(t("register-bad-number"), { reply_markup: contactKeyboard(t) });
      return;
    }
    if (telegramId !== ctx.from.id) {
      // Linked to a WhatsApp account: its number is its identity and does not move from here.
      const own = await deps.accounts.phoneOf(ctx.from.id);
      await ctx.reply(t("register-linked", { phone: own ? formatPhone(own) : "" }), {
        reply_markup: { remove_keyboard: true },
      });
      return;
    }
    const owner = await deps.accounts.userByPhone(phone);
    if (owner !== null && owner !== ctx.from.id && isWhatsAppChat(owner)) {
      await linkToWhatsApp(deps, ctx, t, { telegramId, owner, phone });
      return;
    }
    const name = [ctx.from.first_name, ctx.from.last_name].filter(Boolean).join(" ");
    await deps.accounts.register(ctx.from.id, phone, {
      name,
      ...(ctx.from.username ? { username: ctx.from.username } : {}),
      channel: "telegram",
    });
    // The language of the pushes others' actions send them (a cash-in's receipt): the one they
    // chose with /language, else Telegram's (what this chat negotiated).
    await deps.accounts.setLocale(ctx.from.id, t.locale);
    deps.logger.info({ userId: ctx.from.id }, "customer registered");
    await ctx.reply(t("register-done", { phone: formatPhone(phone) }), {
      reply_markup: { remove_keyboard: true },
    });
    await onRegistered(ctx);
  });
  return composer;
}

/**
 * The number already is an account on WhatsApp (WhatsApp verified it): this Telegram user is that
 * person and acts as that account from now on, balance and history included. Only a Telegram user
 * with nothing of their own (no number, no money): one with an account of their own would lose
 * sight of it, so they are told to ask the shop instead (moving money is a booked transfer).
 */
async function linkToWhatsApp(
  deps: BotDeps,
  ctx: BotContext,
  t: Translate,
  who: { telegramId: number; owner: number; phone: Phone },
): Promise<void> {
  const own = await deps.accounts.phoneOf(who.telegramId);
  const money = await deps.payment.availablePaisa(who.telegramId);
  if (own !== null || money > 0) {
    deps.logger.info(
      { userId: who.telegramId },
      "link to a WhatsApp account refused: has an account",
    );
    await ctx.reply(t("register-whatsapp-taken", { phone: formatPhone(who.phone) }), {
      reply_markup: { remove_keyboard: true },
    });
    return;
  }
  await deps.accounts.linkPerson(who.telegramId, who.owner);
  deps.persons.linked(who.telegramId, who.owner);
  deps.logger.info({ userId: who.telegramId, personId: who.owner }, "telegram user linked");
  await ctx.reply(t("register-done", { phone: formatPhone(who.phone) }), {
    reply_markup: { remove_keyboard: true },
  });
}
