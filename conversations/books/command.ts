import { Composer } from "grammy";
import { type BooksReport, floatVerdict, floatVerdictOf } from "../../src/books/index.ts";
import { raisedAlertLines } from "../../src/bot/books-alerts.ts";
import type { BotContext } from "../../src/bot/context.ts";
import { type BotDeps, roleIn } from "../../src/bot/deps.ts";
import { formatOrderTime } from "../../src/bot/format.ts";
import { type Translate, translator } from "../../src/bot/i18n.ts";
import { formatMoney } from "../../src/money.ts";

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
    ...(r.complaintRefunds.refunds > 0
      ? [
          t("books-refunds", {
            count: r.complaintRefunds.refunds,
            sum: rs(r.complaintRefunds.paisa),
            fee: rs(r.complaintRefunds.feePaisa),
          }),
        ]
      : []),
    t("books-float", {
      expected: rs(r.float.expectedPaisa),
      reported: rs(r.float.reportedPaisa),
      flying: rs(r.float.inFlightPaisa),
    }),
    t("books-drift", { drift: rs(r.float.driftPaisa), tolerance: rs(r.float.tolerancePaisa) }),
  ];
  lines.push(...refundWarnings(t, r, rs));
  if (r.inferredDebits.orders > 0) {
    lines.push(
      t("books-inferred", { count: r.inferredDebits.orders, sum: rs(r.inferredDebits.paisa) }),
    );
  }
  // "Beyond the tolerance" only as a verdict: a difference the unknown debits could explain (or
  // the whole wallet before its opening is booked) is none yet.
  if (floatVerdict(r.float) === "beyond") lines.push(t("books-drift-now"));
  else if (r.float.withinTolerance === false) {
    lines.push(t("books-drift-unknowns", { count: r.float.unknownDebits }));
  }
  lines.push(r.balanced ? t("books-balanced") : t("books-unbalanced", { problems: r.problems }));
  lines.push(lastCheckText(t, r.lastCheck, r.float.tolerancePaisa));
  // Every alert standing, each its own line: the last check's line names one at most.
  lines.push(...raisedAlertLines(t, r));
  return lines.join("\n");
}

/** Complaint refunds whose figures the report could not take whole (scan.ts `countRefund`). */
function refundWarnings(t: Translate, r: BooksReport, rs: (paisa: number) => string): string[] {
  const { orderUnread: unread, outOfMargin: out } = r.complaintRefunds;
  return [
    ...(unread.refunds > 0
      ? [t("books-refunds-unread", { count: unread.refunds, sum: rs(unread.paisa) })]
      : []),
    ...(out.refunds > 0
      ? [t("books-refunds-out-of-margin", { count: out.refunds, sum: rs(out.paisa) })]
      : []),
  ];
}

/**
 * What the scheduled check did when it last ran, in its own words: when, its verdict and whether
 * admins were alerted (issue 25: never "alerted" for an alert that was not sent).
 */
function lastCheckText(t: Translate, last: BooksReport["lastCheck"], tolerance: number): string {
  if (last === null) return t("books-check-never");
  const time = formatOrderTime(last.at, "np", t.locale);
  switch (last.verdict) {
    case "within":
      return t("books-check-within", { time });
    case "deferred":
      return t("books-check-deferred", { time, count: last.unknownDebits });
    case "no_report":
      return t("books-check-no-report", { time });
    case "beyond":
      return beyondText(t, last, time, floatVerdictOf(last, tolerance));
  }
}

/**
 * "beyond" is also the verdict of books that do not balance, whatever the float: the line then
 * says what the wallet's check found (within, no verdict for unknown debits, no answer) rather
 * than "beyond the tolerance" or a verdict it did not reach.
 */
function beyondText(
  t: Translate,
  last: NonNullable<BooksReport["lastCheck"]>,
  time: string,
  float: ReturnType<typeof floatVerdictOf>,
): string {
  const unbalancedOnly = !last.balanced && float !== "beyond";
  const wallet = unbalancedOnly
    ? t("books-check-wallet", { state: float, count: last.unknownDebits })
    : "";
  if (last.alertedAt === undefined) {
    const silent = t(
      unbalancedOnly ? "books-check-unbalanced-silent" : "books-check-beyond-silent",
      { time, wallet },
    );
    return last.alertedAdmins === 0 ? `${silent}\n${t("books-check-no-admins")}` : silent;
  }
  return t(unbalancedOnly ? "books-check-unbalanced-alerted" : "books-check-beyond-alerted", {
    time,
    wallet,
    alerted: formatOrderTime(last.alertedAt, "np", t.locale),
    admins: last.alertedAdmins ?? 0,
  });
}

export function books(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("books", async (ctx) => {
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    if (roleIn(deps.settings, ctx) !== "admin") {
      await ctx.reply(t("balance-denied"));
      return;
    }
    await ctx.reply(booksText(t, await deps.books.report()));
  });
  return composer;
}
