import { Composer } from "grammy";
import type { BotContext } from "../../src/bot/context.ts";
import { type BotDeps, roleIn } from "../../src/bot/deps.ts";
import { translator } from "../../src/bot/i18n.ts";
import { COMPLAIN_FLOW, COMPLAINT_ANSWER_FLOW } from "../ids.ts";
import { adminButton, adminButtons, adminLine, refusalText, reportButton } from "./texts.ts";

/** How many open complaints /complaints lists (the soonest due first). */
const LIST_MAX = 20;

/**
 * /complain [reference] and "Report a problem" (customers: the complaint flow), /complaints
 * (admins: the open complaints with their clocks, one message each with Take, Resolve, Reject).
 * Take is one tap; Resolve and Reject enter the answer flow (what was done, a refund, why).
 */
export function complaintCommands(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const priv = composer.chatType("private");
  const isAdmin = (ctx: BotContext) => roleIn(deps.settings, ctx) === "admin";

  priv.command("complain", (ctx) => ctx.conversation.enter(COMPLAIN_FLOW, ctx.match.trim()));

  priv.command("complaints", async (ctx) => {
    const complaints = deps.complaints;
    if (!isAdmin(ctx) || !complaints) {
      await ctx.reply(ctx.t("complaint-denied"));
      return;
    }
    const open = await complaints.listOpen(LIST_MAX);
    if (open.length === 0) {
      await ctx.reply(ctx.t("complaints-none"));
      return;
    }
    const translate = translator(deps.i18n, await ctx.i18n.getLocale());
    // The complaints' own clock, the one their due times were set on (review s33-rvcomp 8).
    const now = complaints.now();
    for (const c of open) {
      await ctx.reply(adminLine(translate, c, now), { reply_markup: adminButtons(translate, c) });
    }
    // A list cut at its limit says so: how many more are open, and where they are listed.
    const more = open.length < LIST_MAX ? 0 : (await complaints.countOpen()) - open.length;
    if (more > 0)
      await ctx.reply(
        translate("complaints-more", { shown: String(open.length), more: String(more) }),
      );
  });

  priv.on("callback_query:data", async (ctx, next) => {
    const orderRef = reportButton.parse(ctx.callbackQuery.data);
    if (orderRef === null) return next();
    await ctx.answerCallbackQuery();
    await ctx.conversation.enter(COMPLAIN_FLOW, orderRef);
  });

  priv.on("callback_query:data", async (ctx, next) => {
    const asked = adminButton.parse(ctx.callbackQuery.data);
    if (asked === null) return next();
    await ctx.answerCallbackQuery();
    const complaints = deps.complaints;
    if (!isAdmin(ctx) || !complaints) {
      await ctx.reply(ctx.t("complaint-denied"));
      return;
    }
    if (asked.action !== "t") {
      await ctx.conversation.enter(COMPLAINT_ANSWER_FLOW, ctx.callbackQuery.data);
      return;
    }
    const r = await complaints.take(asked.ref, ctx.from.id);
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    await ctx.reply(
      r.ok
        ? t("complaint-taken-by-you", { ref: asked.ref })
        : refusalText(t, r.code, "complaint" in r ? r.complaint : undefined, asked.ref),
    );
  });

  return composer;
}
