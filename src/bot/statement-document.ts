import { isBalanceMove } from "../accounts/move-entry.ts";
import type { Statement } from "../accounts/statement.ts";
import { documentFonts } from "../documents/fonts.ts";
import { type DocumentSpec, renderPdf } from "../documents/pdf.ts";
import { formatMoney } from "../money.ts";
import { formatOrderTime } from "./format.ts";
import type { Translate } from "./i18n.ts";
import type { ChatDocument } from "./receipt-document.ts";

/**
 * A customer's monthly statement as a document (issue 30): the month's movements of their balance
 * from the books (src/accounts/statement.ts: each with the balance after it), the opening balance
 * before the first and the closing one after the last, money in and out. A month is a calendar
 * month on Nepal's clocks (the wallet's country), "2026-11".
 *
 * Every balance it shows is what was available to spend (posted − held): money held for an order
 * still with the operator is not the customer's to spend, so it is never counted in a balance line
 * and is stated apart ("held") where a hold exists. So an order is a line when its money was held
 * (at Confirm), a failed order again when its hold was released; its post (paid) changes nothing
 * available and is not a line.
 */

export type CompleteStatement = Extract<Statement, { complete: true }>;

/** Nepal time is UTC+5:45, without daylight saving. */
const NPT_OFFSET_MS = (5 * 60 + 45) * 60_000;

/** [from, to) of a month on Nepal's clocks. */
export function monthRange(month: string): { from: number; to: number } {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return {
    from: Date.UTC(y, m - 1, 1) - NPT_OFFSET_MS,
    to: Date.UTC(y, m, 1) - NPT_OFFSET_MS,
  };
}

/** The month `ms` falls in on Nepal's clocks, then the `count - 1` before it, newest first. */
export function recentMonths(ms: number, count: number): string[] {
  const d = new Date(ms + NPT_OFFSET_MS);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const at = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - i, 1));
    out.push(`${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, "0")}`);
  }
  return out;
}

const INTL: Record<string, string> = {
  en: "en-GB",
  ne: "ne-NP-u-nu-latn",
  hi: "hi-IN-u-nu-latn",
};

/** "November 2026" in the reader's language, Latin digits. */
export function monthLabel(locale: string, month: string): string {
  const { from } = monthRange(month);
  return new Intl.DateTimeFormat(INTL[locale] ?? "en-GB", {
    month: "long",
    year: "numeric",
    timeZone: "Asia/Kathmandu",
  }).format(from + NPT_OFFSET_MS);
}

const KINDS = new Set([
  "credit",
  "demo_credit",
  "cash_in",
  "topup",
  "post",
  "adjustment",
  "reversal",
]);

/** What a movement was, in the reader's words. */
function kindText(t: Translate, entry: Line["entry"], change: number): string {
  const { kind } = entry;
  if (isBalanceMove(entry)) return t("statement-kind-move");
  if (kind === "hold" || kind === "post") return t("statement-kind-order");
  if (kind === "void") return t("statement-kind-order-failed");
  if (kind === "reversal")
    return t(change >= 0 ? "statement-kind-refund" : "statement-kind-reversal");
  return t(KINDS.has(kind) ? `statement-kind-${kind.replace("_", "-")}` : "statement-kind-other");
}

type Line = CompleteStatement["lines"][number];

/** What a line changed in the money available to spend: its posted change less its held one. */
export const availableChange = (l: Line): number => l.postedChangePaisa - l.heldChangePaisa;

/**
 * Totals of a statement: money in, money out (positive), over what was available to spend, so
 * opening + in − out = closing, all three available.
 */
export function statementTotals(s: CompleteStatement): { inPaisa: number; outPaisa: number } {
  let inPaisa = 0;
  let outPaisa = 0;
  for (const l of s.lines) {
    const c = availableChange(l);
    if (c > 0) inPaisa += c;
    else outPaisa -= c;
  }
  return { inPaisa, outPaisa };
}

export function statementDocumentSpec(
  t: Translate,
  s: CompleteStatement,
  month: string,
  holder: string | undefined,
): DocumentSpec {
  const rs = (p: number) => formatMoney(p, { region: "np", locale: t.locale });
  const signed = (p: number) => (p < 0 ? `−${rs(-p)}` : `+${rs(p)}`);
  const moved = s.lines.filter((l) => availableChange(l) !== 0);
  const totals = statementTotals(s);
  const held = (key: string, paisa: number) => (paisa > 0 ? [t(key, { held: rs(paisa) })] : []);
  return {
    title: t("statement-doc-title", { month: monthLabel(t.locale, month) }),
    ...(holder ? { subtitle: t("statement-doc-holder", { holder }) } : {}),
    lines: [
      t("statement-doc-opening", { balance: rs(s.openingPostedPaisa - s.openingHeldPaisa) }),
      ...held("statement-doc-opening-held", s.openingHeldPaisa),
    ],
    table: {
      columns: [
        { label: t("statement-col-date"), width: 0.26 },
        { label: t("statement-col-what"), width: 0.2 },
        { label: t("statement-col-ref"), width: 0.2 },
        { label: t("statement-col-change"), width: 0.17, align: "right" },
        { label: t("statement-col-balance"), width: 0.17, align: "right" },
      ],
      rows: moved.map((l) => [
        formatOrderTime(l.entry.at, "np", t.locale),
        kindText(t, l.entry, availableChange(l)),
        l.entry.reference ?? "",
        signed(availableChange(l)),
        rs(l.postedPaisa - l.heldPaisa),
      ]),
    },
    closing: [
      t("statement-doc-in-out", { in: rs(totals.inPaisa), out: rs(totals.outPaisa) }),
      t("statement-doc-closing", { balance: rs(s.closingPostedPaisa - s.closingHeldPaisa) }),
      ...held("statement-doc-held", s.closingHeldPaisa),
    ],
    footer: t("statement-doc-footer"),
    at: s.lines.at(-1)?.entry.at ?? s.from,
    lang: t.locale,
    size: "A4",
  };
}

export async function statementDocument(
  t: Translate,
  s: CompleteStatement,
  month: string,
  holder: string | undefined,
): Promise<ChatDocument> {
  return {
    filename: `statement-${month}.pdf`,
    bytes: await renderPdf(statementDocumentSpec(t, s, month, holder), documentFonts()),
    caption: t("statement-doc-caption", { month: monthLabel(t.locale, month) }),
  };
}
