import { Composer } from "grammy";
import { bookedRefunds } from "../../src/bot/booked-refunds.ts";
import {
  historyPageButton,
  historySearchButton,
  historyViewButton,
  repeatButton,
} from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { type Translate, translator } from "../../src/bot/i18n.ts";
import { nicknameLabel } from "../../src/bot/saved.ts";
import { HISTORY_SEARCH_FLOW, REPEAT_FLOW } from "../ids.ts";
import { type HistoryReply, type NumberLabel, renderHistory } from "./render.ts";
import { findPage, type HistoryView, parseHistoryArg, parseViewData } from "./view.ts";

export { HISTORY_SIZE } from "./view.ts";
export { type HistoryReply, type NumberLabel, renderHistory };

/** The user's nicknames as a NumberLabel. */
async function labelsFor(deps: Pick<BotDeps, "saved">, userId: number): Promise<NumberLabel> {
  return nicknameLabel(await deps.saved.list(userId));
}

/**
 * The /history message for a view of this user's orders, newest first. A page past the end
 * (orders gone since, or forged data) shows the view's first page. Usable wherever a `t` is at
 * hand (a command, a page button, the search flow, a question in the middle of a flow).
 */
export async function historyReply(
  deps: Pick<BotDeps, "orders" | "saved" | "complaints">,
  userId: number,
  view: HistoryView,
  t: Translate,
  opts: { now: number; search?: boolean },
): Promise<HistoryReply> {
  const label = await labelsFor(deps, userId);
  let found = await findPage(deps.orders, userId, view);
  let shown = view;
  if (found.orders.length === 0 && view.page > 0) {
    shown = { ...view, page: 0 };
    found = await findPage(deps.orders, userId, shown);
  }
  // A complaint's refund of an order is on its line (review s33-rvtruth 7): one read a page.
  const refunds = await bookedRefunds(deps, found.orders);
  return renderHistory(t, { view: shown, ...found, ...opts, refunds }, label);
}

/** A reply's text and its buttons as grammY's `other`. */
export function historyMessage(r: HistoryReply) {
  return [r.text, r.keyboard ? { reply_markup: r.keyboard } : {}] as const;
}

/** The view a /history, Prev / Next or month button stands for (old `hp:` buttons included). */
export function viewOfButton(data: string | undefined): HistoryView | null {
  const v = historyViewButton.parse(data);
  if (v !== null) return parseViewData(v);
  const page = historyPageButton.parse(data);
  return page === null ? null : { page };
}

/**
 * /history [month | number]: the user's orders, a page at a time, each with its reference and total
 * paid and a Repeat button that enters the repeat flow; month buttons and "Search a number" under
 * them (`/history 2026-10`, `/history 9841234567` do the same in one message).
 */
export function history(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const priv = composer.chatType("private");
  // The reader's locale: the texts and the money signs follow it.
  const tOf = async (ctx: BotContext): Promise<Translate> =>
    translator(deps.i18n, await ctx.i18n.getLocale());

  priv.command("history", async (ctx) => {
    const t = await tOf(ctx);
    const view = parseHistoryArg(ctx.match);
    if (view === null) {
      await ctx.reply(t("history-invalid"));
      return;
    }
    const reply = await historyReply(deps, ctx.from.id, view, t, { now: Date.now() });
    await ctx.reply(...historyMessage(reply));
  });

  // Prev / Next and the months edit the list in place; the view is read for the presser, so forged
  // data shows only their own orders.
  priv.on("callback_query:data", async (ctx, next) => {
    const view = viewOfButton(ctx.callbackQuery.data);
    if (view === null) return next();
    await ctx.answerCallbackQuery();
    const t = await tOf(ctx);
    const reply = await historyReply(deps, ctx.from.id, view, t, { now: Date.now() });
    // A double tap's "message is not modified" is ignored by the error boundary.
    await ctx.editMessageText(...historyMessage(reply));
  });

  // "Search a number": a question, so a flow of its own (the typed number is its answer).
  priv.on("callback_query:data", async (ctx, next) => {
    if (!historySearchButton.is(ctx.callbackQuery.data)) return next();
    await ctx.answerCallbackQuery();
    await ctx.conversation.enter(HISTORY_SEARCH_FLOW);
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
