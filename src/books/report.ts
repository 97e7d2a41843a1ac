import { account } from "../ledger/index.ts";
import { CROSSING, judge } from "./alerts.ts";
import { type BooksDeps, FLOAT_OPENING_ID } from "./deps.ts";
import { LOW_FLOAT } from "./float-watch.ts";
import { type BooksReport, type LastCheck, lastCheckSchema, type Raised } from "./model.ts";
import { floatView, inFlight, scan } from "./scan.ts";

export { type BooksDeps, type BooksReport, FLOAT_OPENING_ID, type LastCheck };

/**
 * The admin's books (issue 15): what the merchant owes (customers, agents), what it has earned
 * (fees, margin), and the merchant's wallet at the aggregator as the books expect it against what
 * the aggregator reports. Read by /books, the metrics listener's GET /books and the daily check.
 *
 * The books only know the float's movements; its opening balance comes from the aggregator: the
 * first report with the books' figure known is booked once as an adjustment with a reason
 * ("float-opening", merchant:float against merchant:adjustments), so every later difference is a
 * real one. Expected = the books' float − the debits of orders the aggregator has already taken
 * but our books book only at success (open orders whose execute answer said so). The books' float
 * and the open orders are read before and after the aggregator's answer: only when the two views
 * agree and no debit is unknown is the opening booked and the figure exact; otherwise its range is
 * known (± the most the unknown debits can carry), enough for a "beyond" verdict when even its
 * nearest end is beyond the tolerance (alerts.ts).
 */

const LAST_CHECK = "books-check";
const FLOAT_ANCHORED = "float-anchored";

/** The last check's record; an unreadable one (never written by us) counts as none. */
async function lastCheck(deps: Pick<BooksDeps, "crossings" | "logger">): Promise<LastCheck | null> {
  const raw = await deps.crossings.recall(LAST_CHECK);
  if (raw === null) return null;
  try {
    return lastCheckSchema.parse(JSON.parse(raw));
  } catch {
    deps.logger?.warn("books: the last check's record is unreadable");
    return null;
  }
}

/**
 * Which alerts stand now, each read from its own crossing (model.ts `raised`). The low-float
 * alert only while it is on (`lowFloatPaisa` > 0): one left standing when LOW_FLOAT_ALERT was
 * turned off is no alert of this configuration (the next wallet reading clears it, float-watch.ts).
 */
async function raisedNow(
  deps: Pick<BooksDeps, "crossings">,
  lowFloatPaisa: number,
): Promise<Raised> {
  const [drift, unbalanced, noVerdict, lowFloat] = await Promise.all(
    [CROSSING.drift, CROSSING.unbalanced, CROSSING.noVerdict, LOW_FLOAT].map((name) =>
      deps.crossings.raised(name),
    ),
  );
  return {
    drift: drift === true,
    unbalanced: unbalanced === true,
    noVerdict: noVerdict === true,
    lowFloat: lowFloat === true && lowFloatPaisa > 0,
  };
}

export function createBooks(
  deps: BooksDeps,
  settings: { tolerancePaisa: number; lowFloatPaisa?: number },
) {
  const lowFloatPaisa = settings.lowFloatPaisa ?? 0;
  /** The float as the books see it (debit-normal: debits − credits). */
  const booksFloat = async () => -(await deps.ledger.balance(account.merchant.float)).postedPaisa;

  /**
   * Books the opening float once (see above) and answers by how much the books' float moved. Two
   * reports at once (the check at start and an admin's /books, or two processes) may both get
   * here: the transfer's id makes it one booking, and the one that finds it booked already reads
   * the float again, so neither reports the opening as a drift.
   */
  async function anchor(books: number, expected: number, reported: number): Promise<number> {
    const diff = reported - expected;
    if (diff === 0) {
      await deps.crossings.markOnce(FLOAT_ANCHORED);
      return 0;
    }
    const r = await deps.ledger.transfer({
      id: FLOAT_OPENING_ID,
      debit: diff > 0 ? account.merchant.float : account.merchant.adjustments,
      credit: diff > 0 ? account.merchant.adjustments : account.merchant.float,
      amountPaisa: Math.abs(diff),
      kind: "adjustment",
      reason: "opening float as the aggregator reported it",
    });
    await deps.crossings.markOnce(FLOAT_ANCHORED);
    if (r.ok && !r.duplicate) {
      deps.logger?.info({ paisa: diff }, "opening float booked");
      return diff;
    }
    return (await booksFloat()) - books;
  }

  async function report(): Promise<BooksReport> {
    const at = deps.now();
    const [s, check, last, marked, raised] = await Promise.all([
      scan(deps),
      deps.ledger.check(),
      lastCheck(deps),
      deps.crossings.isMarked(FLOAT_ANCHORED),
      raisedNow(deps, lowFloatPaisa),
    ]);
    const anchored = s.anchored || marked;
    // The float's side is read before and after the aggregator's answer (an HTTP call: orders
    // move meanwhile), and the views read after the mark: whoever set it booked the opening
    // first, so neither view can miss an opening booked before the mark was read.
    const before = await floatView(deps, booksFloat);
    let reported: number | null = null;
    try {
      reported = (await deps.walletBalance()).creditAvailablePaisa;
    } catch (err) {
      deps.logger?.warn({ err: String(err) }, "books: the aggregator's wallet did not answer");
    }
    const after = await floatView(deps, booksFloat);
    // An order unknown, or anything that moved during the call, is counted as unknown: the
    // reading may or may not include it, so it books no opening, and gives a verdict only when
    // the most it can explain (`boundPaisa`) is not enough (alerts.ts `floatVerdict`).
    const flying = inFlight(before, after);
    let books = after.booksPaisa;
    const consistent = reported !== null && flying.unknown === 0;
    if (reported !== null && consistent && !anchored) {
      books += await anchor(books, books - flying.paisa, reported);
    }
    const expected = books - flying.paisa;
    const drift = reported === null ? null : reported - expected;
    // A final order's hold never posted or voided is a hold problem too (scan.ts).
    const holdProblems = check.pendingProblems.length + s.stranded.length;
    if (s.stranded.length > 0) deps.logger?.warn({ holds: s.stranded }, "books: holds stranded");
    return {
      at,
      balanced: check.ok && s.stranded.length === 0,
      postedSumPaisa: check.postedSum,
      pendingSumPaisa: check.pendingSum,
      problems: check.differences.length + check.belowZero.length + holdProblems,
      ledgerProblems: {
        differences: check.differences.length,
        belowZero: check.belowZero.length,
        pendingProblems: holdProblems,
      },
      customers: s.customers,
      agents: s.agents,
      // Fee income less the fees complaint refunds returned (scan.ts `refundedFeeOf`).
      feeIncomePaisa:
        (await deps.ledger.balance(account.merchant.fees)).postedPaisa - s.refunds.feePaisa,
      margin: s.margin,
      complaintRefunds: s.refunds,
      inferredDebits: s.inferred,
      lastCheck: last,
      raised,
      lowFloatPaisa,
      float: {
        booksPaisa: books,
        inFlightPaisa: flying.paisa,
        unknownDebits: flying.unknown,
        unknownBoundPaisa: flying.boundPaisa,
        openingBooked: anchored || consistent,
        expectedPaisa: expected,
        reportedPaisa: reported,
        driftPaisa: drift,
        tolerancePaisa: settings.tolerancePaisa,
        withinTolerance: drift === null ? null : Math.abs(drift) <= settings.tolerancePaisa,
      },
    };
  }

  /**
   * The scheduled check: the report, and one alert to the admins per problem as it arises
   * (alerts.ts `judge`). What it did is recorded (LastCheck) for /books.
   */
  async function check(adminChatIds: readonly number[]): Promise<BooksReport> {
    const r = await report();
    return record(r, await judge(deps, r, adminChatIds));
  }

  async function record(r: BooksReport, last: LastCheck): Promise<BooksReport> {
    await deps.crossings.remember(LAST_CHECK, JSON.stringify(lastCheckSchema.parse(last)));
    // The check may have raised or re-armed alerts since the report read them.
    return { ...r, lastCheck: last, raised: await raisedNow(deps, lowFloatPaisa) };
  }

  return { report, check };
}

export type Books = ReturnType<typeof createBooks>;
