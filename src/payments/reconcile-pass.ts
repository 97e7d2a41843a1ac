import { confirmTopUp } from "./apply.ts";
import { dueAt, STUCK_AFTER_MS, type TopUpContext } from "./context.ts";
import { GatewayError } from "./gateway/port.ts";
import { alertAdmins, alertHeld, pushStatus } from "./notices.ts";
import { alertPartial } from "./partial-refund.ts";
import { needsLookup } from "./state.ts";

/**
 * One reconciler pass (reconciler.ts runs it on a timer): everything due is looked up (open, or
 * completed while its refund is watched) or told again (a push or a held alert a crash left
 * unsent); an open top-up with no end in sight is reported to the admins once.
 */
/** One reconciler pass: everything due is looked up (or pushed) again. */
export async function reconcilePass(ctx: TopUpContext, limit = 50): Promise<number> {
  const { store, opts, logger, now } = ctx;
  const due = await store.due(now(), limit);
  for (const [g, pid] of due) {
    try {
      const t = await store.get(g, pid);
      if (!t) continue;
      if (needsLookup(t) || t.status === "completed") await confirmTopUp(ctx, g, pid);
      else await pushStatus(ctx, await alertPartial(ctx, await alertHeld(ctx, t)));
      const after = await store.get(g, pid);
      if (
        after &&
        needsLookup(after) &&
        !after.stuckAlerted &&
        now() > after.expiresAt + STUCK_AFTER_MS
      ) {
        await alertAdmins(ctx, after, "stuck");
        const flagged = { ...after, stuckAlerted: true };
        await store.update(after.version, flagged, undefined, dueAt(opts, flagged, now()));
        continue;
      }
      // Nothing changed (a Pending again, or a failed lookup): keep it on the schedule.
      if (after && after.version === t.version) {
        const at = now();
        await store.update(t.version, { ...t }, undefined, dueAt(opts, t, at));
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
