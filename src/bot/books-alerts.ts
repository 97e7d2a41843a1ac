import type { BooksReport } from "../books/model.ts";
import { type RaisedAlert, raisedAlerts } from "../books/raised.ts";
import { formatMoney } from "../money.ts";
import { formatOrderTime } from "./format.ts";
import type { Translate } from "./i18n.ts";

/**
 * The admin alerts standing now, one line each with its figures, in the reader's language: the
 * words /books (conversations/books) and the back office's books page share, so both list every
 * alert raised rather than one. The merchant's wallet is in Nepal rupees.
 */
export function raisedAlertLines(t: Translate, r: BooksReport): string[] {
  const alerts = raisedAlerts(r);
  if (alerts.length === 0) return [t("books-raised-none")];
  return [t("books-raised-title", { count: alerts.length }), ...alerts.map((a) => lineOf(t, a))];
}

function lineOf(t: Translate, a: RaisedAlert): string {
  const rs = (paisa: number | null) =>
    paisa === null ? t("books-unknown") : formatMoney(paisa, { locale: t.locale });
  switch (a.kind) {
    case "drift":
      return withSent(
        t,
        a,
        t("books-raised-drift", {
          expected: rs(a.expectedPaisa),
          reported: rs(a.reportedPaisa),
          drift: rs(a.driftPaisa),
          tolerance: rs(a.tolerancePaisa),
        }),
      );
    case "unbalanced":
      return withSent(
        t,
        a,
        t("books-raised-unbalanced", {
          problems: a.problems,
          posted: rs(a.postedSumPaisa),
          pending: rs(a.pendingSumPaisa),
        }),
      );
    case "noVerdict":
      return withSent(
        t,
        a,
        a.walletAnswered
          ? t("books-raised-no-verdict-debits", { hours: a.hours, count: a.unknownDebits })
          : t("books-raised-no-verdict-wallet", { hours: a.hours }),
      );
    case "lowFloat":
      return t("books-raised-low-float", {
        balance: rs(a.reportedPaisa),
        threshold: rs(a.thresholdPaisa),
      });
  }
}

/** Who was told, as the check recorded it; nothing when it recorded nothing. */
function withSent(t: Translate, a: { sent?: { at?: number; admins: number } }, line: string) {
  if (a.sent === undefined) return line;
  if (a.sent.at === undefined || a.sent.admins === 0) return `${line} ${t("books-raised-unsent")}`;
  const time = formatOrderTime(a.sent.at, "np", t.locale);
  return `${line} ${t("books-raised-sent", { admins: a.sent.admins, time })}`;
}
