import type { BooksReport, LastCheck, Sent } from "./model.ts";

/**
 * Every admin alert standing now, one entry each, with the figures to say it by: /books and the
 * back office's books page both list these (src/bot/books-alerts.ts words them), so neither
 * shows one alert for several. The figures are the report's, read now (the alert's own were
 * sent with it); `sent` is when and to how many admins the scheduled check queued it, when it
 * recorded that (the low-float alert is sent by the order's answer and records nothing).
 */
export type RaisedAlert =
  | {
      kind: "drift";
      sent?: Sent;
      expectedPaisa: number;
      reportedPaisa: number | null;
      driftPaisa: number | null;
      tolerancePaisa: number;
    }
  | {
      kind: "unbalanced";
      sent?: Sent;
      problems: number;
      postedSumPaisa: number;
      pendingSumPaisa: number;
    }
  | {
      kind: "noVerdict";
      sent?: Sent;
      /** Whole hours since the float's last verdict. */
      hours: number;
      /** At the check's last try: the wallet did not answer, or this many debits were unknown. */
      walletAnswered: boolean;
      unknownDebits: number;
    }
  | { kind: "lowFloat"; reportedPaisa: number | null; thresholdPaisa: number };

const HOUR = 3_600_000;

export function raisedAlerts(r: BooksReport): RaisedAlert[] {
  const out: RaisedAlert[] = [];
  const sent = r.lastCheck?.alerts ?? {};
  const f = r.float;
  if (r.raised.drift) {
    out.push({
      kind: "drift",
      ...(sent.drift ? { sent: sent.drift } : {}),
      expectedPaisa: f.expectedPaisa,
      reportedPaisa: f.reportedPaisa,
      driftPaisa: f.driftPaisa,
      tolerancePaisa: f.tolerancePaisa,
    });
  }
  if (r.raised.unbalanced) {
    out.push({
      kind: "unbalanced",
      ...(sent.unbalanced ? { sent: sent.unbalanced } : {}),
      problems: r.problems,
      postedSumPaisa: r.postedSumPaisa,
      pendingSumPaisa: r.pendingSumPaisa,
    });
  }
  if (r.raised.noVerdict) {
    const last = r.lastCheck;
    const since = last?.floatVerdictAt ?? last?.at ?? r.at;
    out.push({
      kind: "noVerdict",
      ...(sent.noVerdict ? { sent: sent.noVerdict } : {}),
      hours: Math.max(0, Math.floor((r.at - since) / HOUR)),
      walletAnswered:
        last === null
          ? f.reportedPaisa !== null
          : floatVerdictOf(last, f.tolerancePaisa) !== "no_report",
      unknownDebits: last?.unknownDebits ?? f.unknownDebits,
    });
  }
  if (r.raised.lowFloat) {
    out.push({ kind: "lowFloat", reportedPaisa: f.reportedPaisa, thresholdPaisa: r.lowFloatPaisa });
  }
  return out;
}

/**
 * The float's own verdict at a check: as recorded, or, in an earlier version's record, as its
 * figures tell. `verdict` alone cannot: books that do not balance make it "beyond" whatever the
 * wallet said. Its difference is recorded only with a verdict (alerts.ts), so without one it was
 * the unknown debits (when there were any) or the wallet's silence.
 */
export function floatVerdictOf(
  last: LastCheck,
  tolerancePaisa: number,
): NonNullable<LastCheck["floatVerdict"]> {
  if (last.floatVerdict !== undefined) return last.floatVerdict;
  if (last.verdict !== "beyond") return last.verdict;
  if (last.driftPaisa !== null) {
    return Math.abs(last.driftPaisa) > tolerancePaisa ? "beyond" : "within";
  }
  return last.unknownDebits > 0 ? "deferred" : "no_report";
}
