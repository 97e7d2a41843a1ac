import { Composer } from "grammy";
import type { BooksReport } from "../../books/index.ts";
import { formatMoney } from "../../money.ts";
import type { BotContext } from "../context.ts";
import { type BotDeps, roleOf } from "../deps.ts";
import { formatOrderTime } from "../format.ts";
import { type Translate, translator } from "../i18n.ts";

/**
 * /books (issue 15), for admins only: what the merchant owes its customers and agents, what it
 * earned (fee income, margin), and its wallet at the aggregator as the books expect it against
 * what the aggregator reports. The same report as the metrics listener's GET /books.
 */
export function booksText(t: Translate, r: BooksReport): string {
  const rs = (paisa: number | null) =>
    paisa === null ? t("books-unknown") : formatMoney(paisa, { locale: t.locale });
  const lines = [
    t("books-title", { time: formatOrderTime(r.at, "np", t.locale) }),
    t("books-customers", {
      balance: rs(r.customers.balancePaisa),
      held: rs(r.customers.heldPaisa),
      count: r.customers.accounts,
    }),
    t("books-agents", { balance: rs(r.agents.balancePaisa), count: r.agents.accounts }),
    t("books-fees", { fees: rs(r.feeIncomePaisa) }),
    t("books-margin", {
      margin: rs(r.margin.marginPaisa),
      orders: r.margin.orders,
      commission: rs(r.margin.commissionReportedPaisa),
    }),
    t("books-float", {
      expected: rs(r.float.expectedPaisa),
      reported: rs(r.float.reportedPaisa),
      flying: rs(r.float.inFlightPaisa),
    }),
    t("books-drift", { drift: rs(r.float.driftPaisa), tolerance: rs(r.float.tolerancePaisa) }),
  ];
  if (r.float.withinTolerance === false) lines.push(t("books-drift-alert"));
  lines.push(r.balanced ? t("books-balanced") : t("books-unbalanced", { problems: r.problems }));
  return lines.join("\n");
}

export function books(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("books", async (ctx) => {
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    if (roleOf(deps.settings, ctx.from.id) !== "admin" || !deps.books) {
      await ctx.reply(t("balance-denied"));
      return;
    }
    await ctx.reply(booksText(t, await deps.books.report()));
  });
  return composer;
}
