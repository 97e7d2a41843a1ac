import { Composer, InlineKeyboard } from "grammy";
import { shortcutButton } from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";
import { rupeesToPaisa } from "../../src/money.ts";
import { classify, type Shortcut } from "./classify.ts";

/**
 * Shortcuts every app has (issue 30): a message that is only a number or an account id starts the
 * flow that takes it, the number filled in (several could: "which is it?" with a button each),
 * and a recharge deep link (`/start r-9841234567-100`, t.me/<bot>?start=… or a WhatsApp message
 * prefilled with "start r-…") starts it with the amount too. The categories' flows take what a
 * shortcut brings as their conversation argument (src/categories/shared/prefill.ts).
 */

/** A menu button: its conversation and label (as menu/ has them; the folders stay apart). */
interface MenuEntry {
  conversation: string;
  labelKey: string;
}

export interface ShortcutMenu {
  entries: readonly MenuEntry[];
  /** Whether a category is offered now (its menu button shows). */
  offered: (conversation: string) => boolean;
  /** May this user order; when not, it has told them why. */
  gate: (ctx: BotContext) => Promise<boolean>;
}

/** The categories of `found` this deployment has and offers now, most likely first. */
function candidatesOf(menu: ShortcutMenu, found: Shortcut): MenuEntry[] {
  return found.categories
    .map((id) => menu.entries.find((e) => e.conversation === id))
    .filter((e): e is MenuEntry => e !== undefined && menu.offered(e.conversation));
}

/** Enters the one category, or asks which with a button each; false when none takes it. */
async function startFor(
  ctx: BotContext,
  menu: ShortcutMenu,
  found: Shortcut,
  amountPaisa?: number,
): Promise<boolean> {
  const candidates = candidatesOf(menu, found);
  const only = candidates.length === 1 ? candidates[0] : undefined;
  if (candidates.length === 0) return false;
  if (!(await menu.gate(ctx))) return true;
  if (only) {
    await ctx.conversation.enter(only.conversation, {
      number: found.number,
      ...(amountPaisa ? { amountPaisa } : {}),
    });
    return true;
  }
  const kb = new InlineKeyboard();
  for (const c of candidates) {
    const data = `${c.conversation}:${found.number}`;
    if (shortcutButton.fits(data)) kb.text(ctx.t(c.labelKey), shortcutButton.build(data)).row();
  }
  await ctx.reply(ctx.t("shortcut-which", { number: found.number }), { reply_markup: kb });
  return true;
}

/** A number or id typed alone outside a flow; tried after every command, before the fallbacks. */
export function bareNumber(menu: ShortcutMenu): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const priv = composer.chatType("private");
  priv.on("message:text", async (ctx, next) => {
    const found = classify(ctx.message.text);
    if (!found || !(await startFor(ctx, menu, found))) return next();
  });
  priv.on("callback_query:data", async (ctx, next) => {
    const picked = shortcutButton.parse(ctx.callbackQuery.data);
    if (picked === null) return next();
    const [id = "", number = ""] = splitOnce(picked);
    const entry = menu.entries.find((e) => e.conversation === id);
    if (!entry || !menu.offered(id)) return next();
    await ctx.answerCallbackQuery();
    // The question's buttons go: the choice is made.
    await ctx.editMessageReplyMarkup().catch(() => {});
    if (!(await menu.gate(ctx))) return;
    await ctx.conversation.enter(id, { number });
  });
  return composer;
}

const splitOnce = (s: string): [string, string] => {
  const i = s.indexOf(":");
  return [s.slice(0, i), s.slice(i + 1)];
};

/** `r-<number>` or `r-<number>-<rupees>`: a recharge deep link's payload. */
const RECHARGE_LINK = /^r-(\d{7,15})(?:-(\d{1,6}))?$/;

/**
 * /start with a recharge payload starts that recharge; any other /start goes on to start/ (and
 * shop/, for a shop's QR code). Tried before /start.
 */
export function rechargeLink(
  menu: ShortcutMenu,
  reactivate: (chatId: number, userId?: number) => Promise<void>,
): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("start", async (ctx, next) => {
    const m = RECHARGE_LINK.exec(ctx.match.trim());
    const found = m ? classify(m[1]!) : null;
    if (!m || !found) return next();
    await reactivate(ctx.chat.id, ctx.from.id);
    const amountPaisa = m[2] ? rupeesToPaisa(Number(m[2])) : undefined;
    if (!(await startFor(ctx, menu, found, amountPaisa))) return next();
  });
  return composer;
}
