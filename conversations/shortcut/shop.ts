import { Composer, InputFile } from "grammy";
import QRCode from "qrcode";
import { formatPhone } from "../../src/accounts/index.ts";
import { contactKeyboard } from "../../src/bot/access.ts";
import type { BotContext } from "../../src/bot/context.ts";
import { type BotDeps, roleIn } from "../../src/bot/deps.ts";
import { translator } from "../../src/bot/i18n.ts";
import { withAccount } from "../../src/telegram/call-account.ts";
import { isWhatsAppChat } from "../../src/whatsapp/chat-ids.ts";

/**
 * A shop's QR code (issue 30): an agent's /myqr sends a QR code of the bot's link with the shop's
 * payload (t.me/<bot>?start=shop-<agent id>) to print at the counter. A customer who scans it and
 * registers is recorded as the shop's (the first shop stays: accounts' claimShop) and the agent
 * is told. Scanned before registering, the shop waits in the chat's session until the contact is
 * shared (register/ calls `shopOnRegistration`); on WhatsApp the number is the registration, so
 * the shop is recorded at once. Prepaid mode only: in staff mode a customer may not order and has
 * no balance a shop could add to, so /myqr says so and a scanned code is a plain /start.
 */

const SHOP_LINK = /^shop-(\d{1,16})$/;

/** The payload a shop's QR code carries. */
export const shopPayload = (agentId: number) => `shop-${agentId}`;

/** The PNG of a QR code for `link` (what /myqr sends; a test renders the same to compare). */
export function shopQrPng(link: string): Promise<Buffer> {
  return QRCode.toBuffer(link, { type: "png", width: 512, margin: 2, errorCorrectionLevel: "M" });
}

/** Records the shop of a registered customer (once) and tells its agent, in the agent's language. */
async function recordShop(deps: BotDeps, ctx: BotContext, userId: number, agentId: number) {
  if (userId === agentId || !(await deps.accounts.claimShop(userId, agentId))) return false;
  const phone = await deps.accounts.phoneOf(userId);
  const name = [ctx.from?.first_name, ctx.from?.last_name].filter(Boolean).join(" ");
  const t = translator(deps.i18n, (await deps.accounts.localeOf(agentId)) ?? "en");
  deps.logger.info({ userId, agentId }, "customer recorded for a shop");
  // The agent's own account named: a released WhatsApp agent's notice reaches its old holder's
  // other chat, never the number's next holder (review s24-k, 2).
  const text = t("shortcut-shop-agent-told", {
    name: name || "-",
    phone: phone ? formatPhone(phone) : "-",
  });
  await withAccount(agentId, () => ctx.api.sendMessage(agentId, text)).catch((err: unknown) =>
    deps.logger.warn({ agentId, err: String(err) }, "shop agent not told"),
  );
  return true;
}

/** After a contact registered the chat: the shop scanned before, if any, is recorded. */
export async function shopOnRegistration(deps: BotDeps, ctx: BotContext): Promise<void> {
  const agentId = ctx.session.shop;
  if (agentId === undefined || !ctx.from) return;
  delete ctx.session.shop;
  // Scanned before a switch to staff mode: no shop to join now (nor a /cashin to tell of). Or
  // before the agent was removed from AGENT_IDS: no longer a shop, told no customer's name and
  // number (review s33-rvagent, 3).
  if (deps.payment.mode !== "prepaid" || !deps.settings.agentIds.includes(agentId)) return;
  if (await recordShop(deps, ctx, ctx.from.id, agentId)) {
    await ctx.reply(ctx.t("shortcut-shop-joined"));
  }
}

/** /start shop-<agent id>: a shop's QR code scanned. Tried before /start. */
export function shopLink(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("start", async (ctx, next) => {
    const m = SHOP_LINK.exec(ctx.match.trim());
    const agentId = m ? Number(m[1]) : Number.NaN;
    // Only a listed agent's shop: any other payload is a plain /start. In staff mode too (a code
    // printed before a switch): "the shop can add money to your balance" would be false there.
    if (!deps.settings.agentIds.includes(agentId) || deps.payment.mode !== "prepaid") {
      return next();
    }
    await deps.reactivateChat(ctx.chat.id, ctx.from.id);
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    const welcome = t("start-welcome", { name: ctx.from.first_name });
    if ((await deps.accounts.phoneOf(ctx.from.id)) === null) {
      ctx.session.shop = agentId;
      await ctx.reply(`${welcome}\n\n${t("shortcut-shop-register")}`, {
        reply_markup: contactKeyboard(t),
      });
      return;
    }
    const recorded = await recordShop(deps, ctx, ctx.from.id, agentId);
    await ctx.reply(
      `${welcome}\n\n${t(recorded ? "shortcut-shop-joined" : "shortcut-shop-again")}`,
    );
  });
  return composer;
}

/** /myqr (agents): the shop's QR code as an image; on WhatsApp, which carries none, the link. */
export function myQr(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command(["myqr", "shopqr"], async (ctx) => {
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    if (roleIn(deps.settings, ctx) !== "agent") {
      await ctx.reply(t("shortcut-qr-agents-only"));
      return;
    }
    if (deps.payment.mode !== "prepaid") {
      await ctx.reply(t("shortcut-qr-staff-mode"));
      return;
    }
    const payload = shopPayload(ctx.from.id);
    const link = `https://t.me/${ctx.me.username}?start=${payload}`;
    const text = t("shortcut-qr-caption", { link, code: `start ${payload}` });
    if (isWhatsAppChat(ctx.chat.id)) {
      await ctx.reply(`${t("shortcut-qr-whatsapp")}\n\n${text}`);
      return;
    }
    const png = await shopQrPng(link);
    await ctx.replyWithPhoto(new InputFile(png, "shop-qr.png"), { caption: text });
  });
  return composer;
}
