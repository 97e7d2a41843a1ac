import { dueAt, MAX_ROUNDS, type TopUpContext } from "./context.ts";
import type { TopUp } from "./model.ts";
import { alertAdmins, pushStatus } from "./notices.ts";
import { decideRefund } from "./state.ts";
import { transferFor } from "./transfers.ts";
import type { RefundDecideResult } from "./types.ts";

/**
 * A partial refund at the gateway (state.ts: completed → partial_refund). Khalti's lookup does not
 * say how much was returned, so nothing is reversed by itself: the admins are alerted once (apart
 * from the customer's push, as a held top-up's alert), and an admin enters the figure the gateway's
 * merchant dashboard shows; that exact amount is then reversed like a full refund's credit.
 */

/**
 * The admins' alert of a partial refund, recorded on the top-up; the reconciler sends what a crash
 * or a failed send left unsent. Returns the top-up as stored afterwards.
 */
export async function alertPartial(ctx: TopUpContext, t: TopUp): Promise<TopUp> {
  const { store, now } = ctx;
  if (t.status !== "partial_refund" || !t.partialRefund || t.partialRefund.alerted) return t;
  if (!(await alertAdmins(ctx, t, "partial_refund"))) return t;
  let cur: TopUp | null = t;
  for (let round = 0; round < MAX_ROUNDS && cur?.status === "partial_refund"; round++) {
    if (!cur.partialRefund) return cur;
    const flagged: TopUp = { ...cur, partialRefund: { ...cur.partialRefund, alerted: true } };
    if ((await store.update(cur.version, flagged, undefined, dueAt(ctx.opts, flagged, now()))).ok)
      return { ...flagged, version: cur.version + 1 };
    cur = await store.get(t.gateway, t.paymentId);
  }
  return cur ?? t;
}

/**
 * An admin's figure for a partial refund: reverses exactly `returnedPaisa` (as far as the balance
 * holds it; the admins' refund alert names any shortfall), in one step with the change to
 * refunded; then the customer is told the figure. A compare-and-set on the version: a second
 * entry, from another tab or instance, finds it refunded ("not_partial") and books nothing.
 */
export async function decidePartialRefund(
  ctx: TopUpContext,
  paymentId: string,
  returnedPaisa: number,
  adminId: number,
): Promise<RefundDecideResult> {
  const { store, gateway, logger, now } = ctx;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const current = await store.get(gateway.name, paymentId);
    if (!current) return { ok: false, reason: "unknown" };
    const at = now();
    const r = decideRefund(current, returnedPaisa, adminId, at);
    if (!r.ok) return r;
    const note = `: partly, ${returnedPaisa} paisa returned (admin=${adminId})`;
    const tr = r.transition;
    const { transfer, reversed } = await transferFor(ctx, current, tr.effect, note);
    const next: TopUp = { ...tr.topUp, reversedPaisa: reversed ?? 0 };
    const out = await store.update(current.version, next, transfer, dueAt(ctx.opts, next, at));
    if (!out.ok && out.reason === "version") continue;
    if (!out.ok) {
      // A spend raced the reversal: decide again from the new balance.
      if (out.refusal.code === "insufficient_funds") continue;
      logger.error({ topUp: current.id, refusal: out.refusal }, "partial refund reversal refused");
      await alertAdmins(ctx, current, "ledger_refused");
      return { ok: false, reason: "ledger_refused" };
    }
    const stored = { ...next, version: current.version + 1 };
    logger.warn(
      { topUp: stored.id, paymentId, adminId, returnedPaisa, reversed: stored.reversedPaisa },
      "partial refund decided",
    );
    await pushStatus(ctx, stored);
    return { ok: true, topUp: (await store.get(gateway.name, paymentId)) ?? stored };
  }
  throw new Error(`top-up ${paymentId}: too many concurrent writers`);
}
