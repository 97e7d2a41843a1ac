import { confirmTopUp } from "./apply.ts";
import {
  dueAt,
  lookupRetryAt,
  refundCheckAt,
  STUCK_AFTER_MS,
  type TopUpContext,
} from "./context.ts";
import { GatewayError } from "./gateway/port.ts";
import { refundShortfall, type TopUp } from "./model.ts";
import { pushStatus, tellUnreadable } from "./notices.ts";
import { recoverRefund } from "./refund-recovery.ts";
import { needsLookup } from "./state.ts";
import { UnreadableTopUpError } from "./store.ts";

/**
 * `t` after a lookup at `at` that the gateway did not answer (a 5xx, a 429, a pidx it no longer
 * knows), so that it is not asked again on every pass: a completed top-up's refund check counts as
 * made (the next one an interval later, as after an answer: a refund seen an hour later is what
 * the watch's pace allows anyway, and a pidx Khalti forgot costs no more than the watch);
 * an open one's failures are counted for the backoff (context.ts `lookupRetryDelay`).
 */
function afterFailedLookup(t: TopUp, at: number): TopUp {
  if (t.status === "completed") return { ...t, checkedAt: at };
  if (!needsLookup(t)) return { ...t };
  const f = t.lookupFailed;
  const tries = (f?.status === t.status ? f.tries : 0) + 1;
  return { ...t, lookupFailed: { status: t.status, tries, at } };
}

/** Open long past its link's expiry with no end from the gateway, the admins' alert not owed yet. */
function noEndInSight(t: TopUp, at: number): boolean {
  return needsLookup(t) && !t.stuckAlerted && !t.stuckAlert && at > t.expiresAt + STUCK_AFTER_MS;
}

/**
 * `t` owing the admins the stuck alert: recorded before it is sent, then sent by `pushStatus` like
 * the other top-up alerts (each chat recorded as it has it, a failed one tried again with the
 * backoff until every admin has it). Before, a flag said "sent" whether or not the send went
 * through, and a lost write race sent it again to every admin (review s31-pay, 2).
 */
const owingStuckAlert = (t: TopUp, at: number): TopUp => ({
  ...t,
  stuckAlert: { sentTo: [], done: false, failures: 0, at },
});

/**
 * A record that does not parse is always first due and never rescheduled: before, every pass
 * stopped at it, so credits, refund reversals and owed alerts behind it all stalled with only a
 * warn line (review s23-d, 1). It is taken off the schedule and recorded as unreadable (listed by
 * /topups and the back office), the admins' alert of it owed in that step (sent at the pass's
 * end, tried again until every admin has it), and the pass goes on. Logged the first time only
 * (an admin's list may have met it first).
 */
async function setAsideUnreadable(
  ctx: TopUpContext,
  gateway: string,
  paymentId: string,
  err: UnreadableTopUpError,
): Promise<void> {
  if (await ctx.store.setAside(gateway, paymentId))
    ctx.logger.error(
      { member: err.member, issues: err.issues },
      "top-up record does not parse: taken off the reconciler's schedule; the admins are told",
    );
}

/**
 * One reconciler pass (reconciler.ts runs it on a timer): everything due is looked up (open, or
 * completed when its refund check is due) or told again (a push or an alert a failure or a crash
 * left unsent: a push alone never asks the gateway); an open top-up with no end in sight is
 * reported to every admin, once (sent again to the ones a send failed); then the held and partial-refund lists are read for records that
 * do not parse (off the schedule: review s24-e, 4), and the owed alerts of unreadable records sent.
 */
export async function reconcilePass(ctx: TopUpContext, limit = 50): Promise<number> {
  const { store, opts, logger, now } = ctx;
  const due = await store.due(now(), limit);
  for (const [g, pid] of due) {
    let at = now();
    try {
      const t = await store.get(g, pid);
      if (!t) continue;
      at = now();
      const lookUpAt = refundCheckAt(opts, t) ?? lookupRetryAt(opts, t);
      const lookup = lookUpAt !== null ? lookUpAt <= at : needsLookup(t);
      // The lookup pushes (and alerts) too (apply.ts), when one is due.
      if (lookup) await confirmTopUp(ctx, g, pid);
      else if (refundShortfall(t) > 0) await recoverRefund(ctx, t);
      else await pushStatus(ctx, t);
      const after = await store.get(g, pid);
      if (!after) continue;
      // Record when a completed top-up's refund was asked about (its next check counts from
      // then), that the gateway answered (failed lookups before count no more), the stuck alert
      // owed, and keep on the schedule what nothing changed (a Pending again, a push not due).
      const checked = lookup && after.status === "completed";
      const answered = lookup && after.lookupFailed !== undefined;
      const stuck = noEndInSight(after, now());
      if (checked || answered || stuck || after.version === t.version) {
        const { lookupFailed: _, ...rest } = after;
        const base = answered ? rest : after;
        const seen = checked ? { ...base, checkedAt: at } : { ...base };
        const next = stuck ? owingStuckAlert(seen, now()) : seen;
        const out = await store.update(after.version, next, undefined, dueAt(opts, next, now()));
        // A lost race sent nothing: the next pass finds it again.
        if (stuck && out.ok) await pushStatus(ctx, { ...next, version: after.version + 1 });
      }
    } catch (err) {
      if (err instanceof UnreadableTopUpError) {
        await unreadableMet(ctx, g, pid, err, at);
        continue;
      }
      if (!(err instanceof GatewayError)) throw err;
      logger.warn({ kind: err.kind, paymentId: pid }, "top-up lookup failed; trying again later");
      const t = await store.get(g, pid);
      if (t) {
        let next = afterFailedLookup(t, at);
        // A gateway that never answers is no end in sight either: the admins hear of it (and a
        // stuck alert owed is tried again here: no lookup answers to send it after).
        if (noEndInSight(next, now())) next = owingStuckAlert(next, now());
        const out = await store.update(t.version, next, undefined, dueAt(opts, next, now()));
        if (out.ok) await pushStatus(ctx, { ...next, version: t.version + 1 });
      }
    }
  }
  await store.checkListed();
  await tellUnreadable(ctx, limit);
  return due.length;
}

/**
 * An unreadable record met in the pass of schedule member `(g, pid)`: that member's own is set
 * aside; another's (a record read beside it) must not take it off the schedule: before, a paid
 * top-up was set aside uncredited, the admins told of it instead of the bad one (review s31-pay,
 * 1). The other's alert is owed, and `(g, pid)` stays scheduled with a failed lookup's backoff.
 */
async function unreadableMet(
  ctx: TopUpContext,
  g: string,
  pid: string,
  err: UnreadableTopUpError,
  at: number,
): Promise<void> {
  const { store, logger, opts, now } = ctx;
  if (err.member === `${g}:${pid}`) return setAsideUnreadable(ctx, g, pid, err);
  if (await store.oweUnreadable(err.member))
    logger.error(
      { member: err.member, issues: err.issues, beside: `${g}:${pid}` },
      "top-up record does not parse: the admins are told; the top-up read beside it stays scheduled",
    );
  let t: TopUp | null;
  try {
    t = await store.get(g, pid);
  } catch (e) {
    if (!(e instanceof UnreadableTopUpError)) throw e;
    return setAsideUnreadable(ctx, g, pid, e);
  }
  if (!t) return;
  const next = afterFailedLookup(t, at);
  await store.update(t.version, next, undefined, dueAt(opts, next, now()));
}
