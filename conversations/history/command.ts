import { Composer, InlineKeyboard } from "grammy";
import { historyPageButton, repeatButton } from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { formatOrderTime } from "../../src/bot/format.ts";
import { type Translate, translator } from "../../src/bot/i18n.ts";
import { statusLabel } from "../../src/bot/order-texts.ts";
import { nicknameLabel } from "../../src/bot/saved.ts";
import { formatMoney } from "../../src/money.ts";
import type { Order } from "../../src/orders/model.ts";
import { REPEAT_FLOW } from "../ids.ts";

/** Orders on one page of /history. */
export const HISTORY_SIZE = 5;

/**
 * How the customer calls the number or account of an order: its saved nickname ("Aama", "Shop
 * landline") where there is one (`labelsFor`), else the number; for the lines and the Repeat
 * buttons alike.
 */
export type NumberLabel = (order: Order) => string;
const plainNumber: NumberLabel = (order) => order.connectionNo;

/** The user's nicknames as a NumberLabel. */
async function labelsFor(deps: Pick<BotDeps, "saved">, userId: number): Promise<NumberLabel> {
  return nicknameLabel(await deps.saved.list(userId));
}

/** A /history message: sent as a reply, or edited in place by Prev / Next. */
export interface HistoryReply {
  text: string;
  /** Absent when there is nothing to repeat. */
  keyboard?: InlineKeyboard;
}

export interface HistoryPage {
  orders: readonly Order[];
  /** 0-based. */
  page: number;
  hasNext: boolean;
}

/**
 * One page as text and buttons: per order its time (in the order's region's time zone), category,
 * operator, number, amount and status; a Repeat button per order labelled with number and amount
 * (the reference travels in the button's data only); Prev / Next when there is another page.
 */
export function renderHistory(
  t: Translate,
  locale: string,
  { orders, page, hasNext }: HistoryPage,
  label: NumberLabel = plainNumber,
): HistoryReply {
  if (orders.length === 0) return { text: t("history-empty") };
  const paged = page > 0 || hasNext;
  const title = paged ? t("history-title-page", { page: page + 1 }) : t("history-title");
  const items = orders.map((o) =>
    t("history-item", {
      time: formatOrderTime(o.createdAt, o.region, locale),
      // Category ids are the menu's keys (menu-mobile, menu-water, ...); the locale test checks all.
      category: t(`menu-${o.category}`),
      operator: o.operatorName,
      number: label(o),
      amount: formatMoney(o.amountPaisa, { region: o.region, locale: t.locale }),
      status: statusLabel(t, o.status),
    }),
  );
  const keyboard = new InlineKeyboard();
  for (const o of orders) {
    const text = t("history-repeat", {
      number: label(o),
      amount: formatMoney(o.amountPaisa, { region: o.region, locale: t.locale }),
    });
    keyboard.text(text, repeatButton.build(o.reference)).row();
  }
  if (page > 0) keyboard.text(t("history-prev"), historyPageButton.build(page - 1));
  if (hasNext) keyboard.text(t("history-next"), historyPageButton.build(page + 1));
  return { text: [title, ...items].join("\n\n"), keyboard };
}

/**
 * The /history message for page `page` of this user's orders, newest first. A page past the end
 * (orders gone since, or forged data) shows the first page. Usable wherever a `t` and the user's
 * locale are at hand (a command, a page button, a question in the middle of a flow).
 */
async function historyReply(
  orders: Pick<BotDeps["orders"], "listByUser">,
  userId: number,
  page: number,
  t: Translate,
  locale: string,
  label: NumberLabel = plainNumber,
): Promise<HistoryReply> {
  // One more than a page tells whether there is a next one.
  const found = await orders.listByUser(userId, HISTORY_SIZE + 1, page * HISTORY_SIZE);
  if (found.length === 0 && page > 0) return historyReply(orders, userId, 0, t, locale, label);
  return renderHistory(
    t,
    locale,
    { orders: found.slice(0, HISTORY_SIZE), page, hasNext: found.length > HISTORY_SIZE },
    label,
  );
}

/** /history: the user's orders, a page at a time, each with a Repeat button that enters the repeat flow. */
export function history(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const priv = composer.chatType("private");
  // The reader's locale: the texts and the money signs follow it.
  const t = (locale: string): Translate => translator(deps.i18n, locale);

  priv.command("history", async (ctx) => {
    const locale = await ctx.i18n.getLocale();
    const label = await labelsFor(deps, ctx.from.id);
    const reply = await historyReply(deps.orders, ctx.from.id, 0, t(locale), locale, label);
    await ctx.reply(reply.text, reply.keyboard ? { reply_markup: reply.keyboard } : {});
  });

  // Prev / Next edit the list in place; the page is read for the presser, so forged data shows only their own orders.
  priv.on("callback_query:data", async (ctx, next) => {
    const page = historyPageButton.parse(ctx.callbackQuery.data);
    if (page === null) return next();
    await ctx.answerCallbackQuery();
    const locale = await ctx.i18n.getLocale();
    const label = await labelsFor(deps, ctx.from.id);
    const reply = await historyReply(deps.orders, ctx.from.id, page, t(locale), locale, label);
    // A double tap's "message is not modified" is ignored by the error boundary.
    await ctx.editMessageText(reply.text, reply.keyboard ? { reply_markup: reply.keyboard } : {});
  });

  // The reference is checked inside the flow: forged data for someone else's order answers "not found".
  priv.on("callback_query:data", async (ctx, next) => {
    const reference = repeatButton.parse(ctx.callbackQuery.data);
    if (reference === null) return next();
    await ctx.answerCallbackQuery();
    await ctx.conversation.enter(REPEAT_FLOW, reference);
  });

  return composer;
}
