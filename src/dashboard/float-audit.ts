import { type JournalEntry, type LedgerStore, postedAround } from "../ledger/index.ts";
import type { Logger } from "../logger.ts";
import type { AuditAction, AuditEntry, AuditLog } from "./audit.ts";
import {
  DIRECTION_WORDS,
  type FloatDecision,
  type FloatMove,
  type FloatMoveRecord,
  type FloatVia,
  transferIdOf,
} from "./float-moves.ts";
import { rs } from "./html.ts";

/**
 * The float movements' audit lines, each there exactly once however a step ends (docs/books.md,
 * "Audited"). A step (a proposal, a decision: their kv keys; a booking: the ledger) cannot share
 * one atomic write with its line (the audit list is another key, the booking another store), so
 * the step's record carries what its line needs (who, when, from where: `via`) and the line is
 * written under a mark of its own (audit.ts recordOnce: the line and its mark in one step). The
 * step's POST writes it; if that POST stopped between the two (a crash, the audit's store
 * failing), a read of the record once the step is older than a grace writes it: the books page,
 * or any later step's POST (a younger step is its POST's, perhaps still running).
 * A record an older process wrote carries no `via` and is left alone: its line is its own.
 */

export type FloatStep = "propose" | "reject" | "approve";

/** The mark of a step's line: one per proposal and step (an approval's line is its booking's). */
export const floatAuditMark = (id: string, step: FloatStep) => `float:${id}:${step}`;

/** A movement as its audit lines name it. */
export const describeMove = (m: FloatMove) =>
  `${transferIdOf(m.id)}: ${DIRECTION_WORDS[m.direction]} ${rs(m.amountPaisa)}: ${m.reason}${m.reference ? ` (ref ${m.reference})` : ""}`;

type Change = Record<string, number | string>;
/** The most an audit line's detail holds (audit.ts). */
const DETAIL_MAX = 300;
const clip = (r: Change): Change =>
  Object.fromEntries(
    Object.entries(r).map(([k, v]) => [k, typeof v === "string" ? v.slice(0, DETAIL_MAX) : v]),
  );

/**
 * `describeMove(m)`, then `tail`: the movement's words clipped ("…") so the tail always fits.
 * A long reason or reference once cut the tail away ("balances at its booking (…)"), leaving a
 * line's balances with no word of whose they are.
 */
export function moveDetail(m: FloatMove, tail: string): string {
  const what = describeMove(m);
  const room = DETAIL_MAX - tail.length - 2;
  const shown = what.length <= room ? what : `${what.slice(0, Math.max(0, room - 1))}…`;
  return `${shown}: ${tail}`.slice(0, DETAIL_MAX);
}

/** An approval's two accounts' posted balances right before and right after its booking. */
export type Figures = { before: Change; after: Change };

/**
 * The transfer's two accounts' posted balances right before and right after its booking, from the
 * books' record of that booking (ledger postedAround): never two reads around it, between which
 * orders and other transfers land. The same figures for the POST that booked it and for one that
 * found it booked already. null when the books hold no such record (the read index not built
 * yet), or when the read fails: the booking is done by then, so a failure (Redis, a journal entry
 * missing) is logged and the figures are not shown, never a 500 that hides the booking and leaves
 * its line to the late repair, without balances.
 */
export async function figuresAtBooking(
  deps: { ledger: Pick<LedgerStore, "accountEntries">; logger: Pick<Logger, "error"> },
  e: JournalEntry,
): Promise<Figures | null> {
  try {
    const [debit, credit] = await Promise.all([
      postedAround(deps.ledger, e, e.debit),
      postedAround(deps.ledger, e, e.credit),
    ]);
    if (!debit || !credit) return null;
    return {
      before: { [e.debit]: debit.beforePaisa, [e.credit]: credit.beforePaisa },
      after: { [e.debit]: debit.afterPaisa, [e.credit]: credit.afterPaisa },
    };
  } catch (err) {
    deps.logger.error(
      { err: String(err), transfer: e.id, seq: e.seq },
      "float movement: booked, but its balances at the booking were not read (not shown)",
    );
    return null;
  }
}

/**
 * The line of an approval POST that found the transfer booked already: it booked and moved
 * nothing, so its before and after carry the proposal's state only (the booking's balances there
 * would count the movement twice, on the audit page and in the CSV's columns). The booking's
 * figures go in its words, named the booking's, whole or not at all (a cut number is a false one).
 */
export function foundBookedDetail(
  m: FloatMove,
  approvedBy: number,
  entry: JournalEntry,
  at: Figures | null,
): string {
  const head = `${transferIdOf(m.id)}: found booked already (approved by admin ${approvedBy}); this POST booked nothing`;
  const figures = at
    ? [entry.debit, entry.credit].map((a) => `${a} ${at.before[a]} → ${at.after[a]}`).join(", ")
    : "";
  const whole = `${head}; the booking's posted paisa (${entry.seq}), not this POST's: ${figures}`;
  if (at && whole.length <= DETAIL_MAX) return whole;
  const why = at ? "not shown here (too long)" : "not read";
  return `${head}; the booking's balances ${why} (${entry.seq})`.slice(0, DETAIL_MAX);
}

/** An audit line of a step made by `who` at `at` from `via`. */
export function floatLine(
  step: { via: FloatVia; who: number; at: number; action: AuditAction },
  detail: string,
  before: Change,
  after: Change,
): AuditEntry {
  const { via } = step;
  return {
    at: step.at,
    userId: step.who,
    role: via.role,
    action: step.action,
    ip: via.ip,
    ...(via.forwardedFor ? { forwardedFor: via.forwardedFor } : {}),
    userAgent: via.userAgent,
    detail: detail.slice(0, DETAIL_MAX),
    before: clip(before),
    after: clip(after),
  };
}

/** The proposal's line, from its record: the POST that made it and a later reader write the same. */
export const proposeLine = (m: FloatMove, via: FloatVia): AuditEntry =>
  floatLine(
    { via, who: m.by, at: m.at, action: "float_propose" },
    describeMove(m),
    { proposal: "none" },
    { proposal: "open", amountPaisa: m.amountPaisa },
  );

/** A rejection's line (the proposer's own: a withdrawal), from the records. */
export function rejectLine(
  m: FloatMove,
  d: FloatDecision,
  via: FloatVia,
  same: (a: number, b: number) => boolean,
): AuditEntry {
  const state = same(m.by, d.by) ? "withdrawn" : "rejected";
  return floatLine(
    { via, who: d.by, at: d.at, action: "float_reject" },
    moveDetail(m, state),
    { proposal: "open" },
    { proposal: state },
  );
}

/**
 * An approval's booking whose POST stopped before its line: what the records and the journal
 * tell (the approver's name, though another may have booked it), and no balances: it claims none.
 */
export function bookedLateLine(
  m: FloatMove,
  d: FloatDecision,
  via: FloatVia,
  entry: JournalEntry,
): AuditEntry {
  const approved = `approved by ${d.by}`;
  return floatLine(
    { via, who: d.by, at: entry.at, action: "float_approve" },
    moveDetail(m, `booked on admin ${d.by}'s approval`),
    { proposal: approved },
    { proposal: approved, transfer: entry.id },
  );
}

/**
 * How long a step is left to its own POST before a read writes its line (the repair): longer than
 * any step's POST lasts from its step to its line (a few round trips). Without it a read between
 * an approval's booking and its POST's line (another admin's page view, a double-clicked Approve)
 * wrote the "cut off" line under the booking's mark, and the POST's own line, with its balances,
 * was dropped. A POST slower than this still loses its line to a read: it is logged (recordStep).
 */
export const FLOAT_AUDIT_GRACE_MS = 2 * 60_000;

export interface FloatAuditDeps {
  audit: Pick<AuditLog, "recordOnce" | "marked">;
  entryOf(id: string): Promise<JournalEntry | null>;
  /** One person (ADMIN_IDS `=` groups): a rejection by its proposer is a withdrawal. */
  same(a: number, b: number): boolean;
  /** The back office's clock (deps.now), against the grace. */
  now(): number;
}

/** A line a step owes: `at` its step's time (an approval's: its decision's; its booking is read later). */
type Owed = { mark: string; at: number; line: () => Promise<AuditEntry | null> };

/** The lines `r`'s steps owe, as its records tell them (a booking's only once it is booked). */
function owedOf(deps: FloatAuditDeps, r: FloatMoveRecord, young: (at: number) => boolean): Owed[] {
  const { move: m, decision: d } = r;
  const owed: Owed[] = [];
  const moveVia = m.via;
  if (moveVia) {
    const line = async () => proposeLine(m, moveVia);
    owed.push({ mark: floatAuditMark(m.id, "propose"), at: m.at, line });
  }
  const via = d?.via;
  if (!d || !via || d.proposal !== r.digest) return owed;
  if (d.decision === "rejected") {
    const line = async () => rejectLine(m, d, via, deps.same);
    owed.push({ mark: floatAuditMark(m.id, "reject"), at: d.at, line });
  } else {
    // Booked later than approved when a later POST booked an approval cut off before its booking.
    const line = async () => {
      const entry = await deps.entryOf(transferIdOf(m.id));
      return entry && !young(entry.at) ? bookedLateLine(m, d, via, entry) : null;
    };
    owed.push({ mark: floatAuditMark(m.id, "approve"), at: d.at, line });
  }
  return owed;
}

/**
 * A step's line as a read writes it: at the time it is written, the step's own time in its detail.
 * The list is read newest first, and a date range's export stops at the first page ending before
 * its start (audit.ts `since`): a line with its step's older time pushed at the head would end a
 * page early and hide the newer lines after it.
 */
const writtenLate = (line: AuditEntry, now: number): AuditEntry => ({
  ...line,
  at: now,
  detail:
    `(written later, its step's own line cut off; the step at ${new Date(line.at).toISOString()}) ${line.detail}`.slice(
      0,
      300,
    ),
});

/**
 * Writes every line `records` owe that is not there yet, of steps older than the grace (one read
 * of the marks; the journal read only for an approval whose line is missing). The number written:
 * 0 unless a step was cut off.
 */
export async function repairFloatAudit(
  deps: FloatAuditDeps,
  records: readonly FloatMoveRecord[],
): Promise<number> {
  const now = deps.now();
  const young = (at: number) => now - at < FLOAT_AUDIT_GRACE_MS;
  const owed = records.flatMap((r) => owedOf(deps, r, young)).filter((o) => !young(o.at));
  if (owed.length === 0) return 0;
  const done = await deps.audit.marked(owed.map((o) => o.mark));
  let written = 0;
  for (const [i, o] of owed.entries()) {
    if (done[i]) continue;
    const line = await o.line();
    if (line && (await deps.audit.recordOnce(writtenLate(line, now), o.mark))) written++;
  }
  return written;
}
