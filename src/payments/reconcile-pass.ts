import { confirmTopUp } from "./apply.ts";
import { dueAt, refundCheckAt, STUCK_AFTER_MS, type TopUpContext } from "./context.ts";
import { GatewayError } from "./gateway/port.ts";
import { alertAdmins, pushStatus } from "./notices.ts";
import { needsLookup } from "./state.ts";

/**
 * One reconciler pass (reconciler.ts runs it on a timer): everything due is looked up (open, or
 * completed when its refund check is due) or told again (a push or an alert a failure or a crash
 * left unsent: a push alone never asks the gateway); an open top-up with no end in sight is
 * reported to the admins once.
 */
export async function reconcilePass(ctx: TopUpContext, limit = 50): Promise<number> {
  const { store, opts, logger, now } = ctx;
  const due = await store.due(now(), limit);
  for (const [g, pid] of due) {
    try {
      const t = await store.get(g, pid);
      if (!t) continue;
      const at = now();
      const check = refundCheckAt(opts, t);
      const lookup = needsLookup(t) || (check !== null && check <= at);
      // The lookup pushes (and alerts) too (apply.ts), when one is due.
      if (lookup) await confirmTopUp(ctx, g, pid);
      else await pushStatus(ctx, t);
      const after = await store.get(g, pid);
      if (!after) continue;
      if (needsLookup(after) && !after.stuckAlerted && now() > after.expiresAt + STUCK_AFTER_MS) {
        await alertAdmins(ctx, after, "stuck");
        const flagged = { ...after, stuckAlerted: true };
        await store.update(after.version, flagged, undefined, dueAt(opts, flagged, now()));
        continue;
      }
      // Record when a completed top-up's refund was asked about (its next check counts from
      // then), and keep on the schedule what nothing changed (a Pending again, a push not due).
      const checked = lookup && after.status === "completed";
      if (checked || after.version === t.version) {
        const next = checked ? { ...after, checkedAt: at } : { ...after };
        await store.update(after.version, next, undefined, dueAt(opts, next, now()));
      }
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      logger.warn({ kind: err.kind, paymentId: pid }, "top-up lookup failed; trying again later");
      const t = await store.get(g, pid);
      if (t) await store.update(t.version, { ...t }, undefined, now() + opts.lookupEveryMs);
    }
  }
  return due.length;
}
