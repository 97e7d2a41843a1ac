import type { Notification } from "../orders/model.ts";
import type { BooksDeps } from "./deps.ts";
import type { BooksReport, LastCheck, Sent } from "./model.ts";

type Problem = "drift" | "unbalanced" | "noVerdict";
/**
 * Each problem has its own once-only alert, re-armed when that problem clears: the float drifting
 * from the aggregator's wallet, the books not balancing (money created or lost), and the float
 * check finding no verdict for NO_VERDICT_ALERT_MS. A drift that stays is told again when it moves
 * beyond the tolerance from the drift last told (`driftMoved`): a drift nobody can clear (a
 * confirmed contradiction, review s25-c 3) must not hide a new difference behind it. At most one
 * alert per check, and only for a move beyond the tolerance: no flood.
 */
export const CROSSING: Record<Problem, string> = {
  drift: "float-drift",
  unbalanced: "books-unbalanced",
  noVerdict: "books-no-verdict",
};
/**
 * The previous version's one crossing for both drift and imbalance ("below" while either stood).
 * Still kept with that meaning, without alerts of its own: a previous version's process still
 * running (a rolling deploy) then does not repeat what this one told, and the
 * `recharge_alert_active{alert="books_drift"}` gauge reads it ("a books alert stands").
 */
const LEGACY_CROSSING = "books-drift";

/**
 * With no float verdict for this long (orders always in flight, or the aggregator silent), the
 * admins are told once that the books check could not conclude; re-armed by the next verdict.
 * A constant: a busy shop's bounded verdict (see `floatVerdict`) should make it rare.
 */
export const NO_VERDICT_ALERT_MS = 6 * 3_600_000;

/**
 * The problems the previous version's shared alert told, read from its last record (one without
 * `alerts`), so this version neither tells them again nor stays silent about the others. Exact
 * when the record is the crossing check's own (`alertedAt` = `at`, or crossed with no admin): its
 * figures are the alert's. Otherwise the alert was carried from an earlier check: a drift the
 * record shows (or cannot rule out) is taken as told, as a drift alert left standing is the usual
 * case; books not balancing are taken as not told, so at worst that alert goes twice, never not
 * at all.
 */
function toldByPrevious(last: LastCheck | null, tolerancePaisa: number) {
  const none = { drift: undefined, unbalanced: undefined } as const;
  if (last === null || last.alerts !== undefined) return none;
  if (last.alertedAt === undefined && last.alertedAdmins === undefined) return none;
  const sent: Sent = {
    ...(last.alertedAt === undefined ? {} : { at: last.alertedAt }),
    admins: last.alertedAdmins ?? 0,
  };
  const exact = last.alertedAt === undefined || last.alertedAt === last.at;
  const beyond = last.driftPaisa !== null && Math.abs(last.driftPaisa) > tolerancePaisa;
  const drift = exact ? beyond : beyond || last.driftPaisa === null;
  const unbalanced = exact && !last.balanced;
  return { drift: drift ? sent : undefined, unbalanced: unbalanced ? sent : undefined };
}

/** The last record's own per-problem alerts (this version's), if any. */
const standingOf = (last: LastCheck | null): NonNullable<LastCheck["alerts"]> => last?.alerts ?? {};

/**
 * The float's verdict: "within" only with every debit known; "beyond" also with debits unknown
 * when even the nearest end of the range they allow (the figure ± `unknownBoundPaisa`) is beyond
 * the tolerance; otherwise none (no figure, no opening booked yet, or a figure the unknowns could
 * explain).
 */
export function floatVerdict(f: BooksReport["float"]): "within" | "beyond" | null {
  if (f.driftPaisa === null || !f.openingBooked) return null;
  const nearest = Math.abs(f.driftPaisa) - f.unknownBoundPaisa;
  if (nearest > f.tolerancePaisa) return "beyond";
  return f.unknownDebits === 0 ? "within" : null;
}

/** One alert per admin, about the books as a whole. */
const toAdmins = (
  r: BooksReport,
  adminChatIds: readonly number[],
  figures: Record<string, number>,
): Notification[] =>
  adminChatIds.map((chatId) => ({
    kind: "admin_alert",
    topic: "books_drift",
    status: "success",
    chatId,
    at: r.at,
    figures,
  }));

/**
 * Each problem's alert and its figures (src/notify/render.ts tells them apart by these). The drift:
 * the float's figures, and how much of the difference unknown debits could explain. The imbalance:
 * which of the ledger's checks failed, and no float figure (the wallet is not what failed).
 */
function alertsOf(
  r: BooksReport,
  problem: Problem,
  adminChatIds: readonly number[],
  since: number,
) {
  const f = r.float;
  if (problem === "drift") {
    return toAdmins(r, adminChatIds, {
      expectedPaisa: f.expectedPaisa,
      reportedPaisa: f.reportedPaisa ?? 0,
      driftPaisa: f.driftPaisa ?? 0,
      tolerancePaisa: f.tolerancePaisa,
      ...(f.unknownDebits > 0
        ? { unknownDebits: f.unknownDebits, unknownBoundPaisa: f.unknownBoundPaisa }
        : {}),
    });
  }
  if (problem === "unbalanced") {
    return toAdmins(r, adminChatIds, {
      balanced: 0,
      differences: r.ledgerProblems.differences,
      belowZero: r.ledgerProblems.belowZero,
      pendingProblems: r.ledgerProblems.pendingProblems,
      postedSumPaisa: r.postedSumPaisa,
      pendingSumPaisa: r.pendingSumPaisa,
    });
  }
  return toAdmins(r, adminChatIds, {
    noVerdictHours: Math.floor((r.at - since) / 3_600_000),
    unknownDebits: f.unknownDebits,
    walletAnswered: f.reportedPaisa === null ? 0 : 1,
  });
}

/**
 * A drift still beyond the tolerance, its alert standing: told again when it moved beyond the
 * tolerance from the drift the standing alert told, allowing for debits in flight as floatVerdict
 * does (the alert says both figures). The crossing is
 * re-armed and crossed again, so the alert is queued by the crossing's own atomic step (a crash
 * between the two leaves it re-armed: the next check alerts). A standing alert from before the
 * drift was recorded with it takes today's drift as its figure, without a word.
 */
async function driftMoved(
  deps: Pick<BooksDeps, "crossings" | "logger">,
  r: BooksReport,
  standing: Sent | undefined,
  adminChatIds: readonly number[],
): Promise<Sent | undefined> {
  const now = r.float.driftPaisa ?? 0;
  // The crossing stands but the record lost its alert (the record's write failed after the
  // alert's crossing): today's drift is taken as told, or no move would ever be told again
  // (review s25-e, note).
  if (standing === undefined) return { admins: 0, driftPaisa: now };
  if (standing.driftPaisa === undefined) return { ...standing, driftPaisa: now };
  // The nearest-end rule of floatVerdict: debits in flight (their figure unknown) may account for
  // up to unknownBoundPaisa of the move, so only a move beyond that and the tolerance is one
  // (review s25-e, 4: else orders in flight on a check day read as "it has moved").
  const moved = Math.abs(now - standing.driftPaisa) - r.float.unknownBoundPaisa;
  if (moved <= r.float.tolerancePaisa) return standing;
  const alerts = alertsOf(r, "drift", adminChatIds, r.at).map((n) =>
    n.kind === "admin_alert"
      ? { ...n, figures: { ...n.figures, toldPaisa: standing.driftPaisa ?? 0 } }
      : n,
  );
  await deps.crossings.record(CROSSING.drift, false, []);
  if (!(await deps.crossings.record(CROSSING.drift, true, alerts))) return standing;
  deps.logger?.warn(
    { problem: "drift", float: r.float, told: standing.driftPaisa },
    "books alert again: the drift moved",
  );
  return alerts.length > 0
    ? { at: r.at, admins: alerts.length, driftPaisa: now }
    : { admins: 0, driftPaisa: now };
}

/**
 * The scheduled check's decisions on a report: one alert to the admins per problem when it arises
 * (the float beyond the tolerance, the books not balancing, no float verdict for
 * NO_VERDICT_ALERT_MS), each re-armed once that problem clears. Books that do not balance are
 * alerted whatever the float's state. Answers the record of what it did.
 */
export async function judge(
  deps: Pick<BooksDeps, "crossings" | "logger">,
  r: BooksReport,
  adminChatIds: readonly number[],
): Promise<LastCheck> {
  const last = r.lastCheck;
  const fv = floatVerdict(r.float);
  const previous = toldByPrevious(last, r.float.tolerancePaisa);
  const standing = standingOf(last);
  const floatVerdictAt =
    fv !== null
      ? r.at
      : (last?.floatVerdictAt ??
        (last !== null && last.alerts === undefined && last.driftPaisa !== null ? last.at : r.at));
  const stuck = r.at - floatVerdictAt >= NO_VERDICT_ALERT_MS;

  /**
   * One problem's crossing: `present` null leaves it as it is (nothing known). A problem the
   * previous version already told crosses without alerts. Answers the alert standing for it.
   */
  const cross = async (problem: Problem, present: boolean | null): Promise<Sent | undefined> => {
    if (present === false) {
      await deps.crossings.record(CROSSING[problem], false, []);
      return undefined;
    }
    const told = problem === "noVerdict" ? undefined : previous[problem];
    if (told) {
      // The previous version's alert stands for it: crossed without a word of ours.
      await deps.crossings.record(CROSSING[problem], true, []);
      return told;
    }
    if (present === null) return standing[problem];
    const alerts = alertsOf(r, problem, adminChatIds, floatVerdictAt);
    const drift = problem === "drift" ? { driftPaisa: r.float.driftPaisa ?? 0 } : {};
    if (!(await deps.crossings.record(CROSSING[problem], true, alerts))) {
      return problem === "drift"
        ? driftMoved(deps, r, standing.drift, adminChatIds)
        : standing[problem];
    }
    deps.logger?.warn({ problem, float: r.float, balanced: r.balanced }, "books alert");
    return alerts.length > 0
      ? { at: r.at, admins: alerts.length, ...drift }
      : { admins: 0, ...drift };
  };

  const alerts = {
    drift: await cross("drift", fv === null ? null : fv === "beyond"),
    unbalanced: await cross("unbalanced", !r.balanced),
    noVerdict: await cross("noVerdict", fv !== null ? false : stuck ? true : null),
  };
  // The previous version's shared crossing, kept as it read it (see LEGACY_CROSSING).
  if (!r.balanced || fv !== null) {
    await deps.crossings.record(LEGACY_CROSSING, !r.balanced || fv === "beyond", []);
  }
  const kept = Object.fromEntries(
    Object.entries(alerts).filter(([, v]) => v !== undefined),
  ) as NonNullable<LastCheck["alerts"]>;
  const verdict =
    !r.balanced || fv === "beyond"
      ? "beyond"
      : fv === "within"
        ? "within"
        : r.float.reportedPaisa === null
          ? "no_report"
          : "deferred";
  if (fv === null) {
    deps.logger?.info({ unknownDebits: r.float.unknownDebits }, "books float check deferred");
  }
  // The latest alert standing for what this verdict is about, for /books's one line.
  const about = [
    fv === "beyond" || fv === null ? alerts.drift : undefined,
    r.balanced ? undefined : alerts.unbalanced,
  ].filter((a): a is Sent => a !== undefined);
  const latest = about.sort((a, b) => (b.at ?? -1) - (a.at ?? -1))[0];
  return {
    at: r.at,
    verdict,
    // A difference the unknown debits could explain is no figure to record.
    driftPaisa: fv === null ? null : r.float.driftPaisa,
    balanced: r.balanced,
    unknownDebits: r.float.unknownDebits,
    ...(verdict === "within" || latest === undefined
      ? {}
      : latest.at === undefined
        ? { alertedAdmins: latest.admins }
        : { alertedAt: latest.at, alertedAdmins: latest.admins }),
    alerts: kept,
    floatVerdictAt,
    floatVerdict: fv ?? (r.float.reportedPaisa === null ? "no_report" : "deferred"),
  };
}
