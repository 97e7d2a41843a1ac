import { capOf, creditLimit } from "./caps.ts";
import { dueAt, MAX_ROUNDS, type TopUpContext } from "./context.ts";
import type { Lookup } from "./gateway/port.ts";
import type { TopUp } from "./model.ts";
import { alertAdmins, pushStatus } from "./notices.ts";
import { decideRefund, rejectPartialRefund } from "./state.ts";
import { transferFor } from "./transfers.ts";
import type { RefundDecideResult } from "./types.ts";

/**
 * A refund at the gateway whose amount its lookup does not say (state.ts: → partial_refund):
 * Partially Refunded, or Completed with `refunded: true`. Nothing moves money by itself: the admins
 * are alerted (with the customer's push, notices.ts `pushStatus`), and an admin enters
 * the figure the gateway's merchant dashboard shows. After a credit exactly that is reversed like
 * a full refund's credit; before any credit the rest of the payment is credited like a completed
 * top-up's (or the admin rejects it: nothing credited).
 */

/**
 * Before the rest of an uncredited payment is credited, the gateway is asked once more (as before
 * a held top-up's credit): it must still report the refund without its amount, for the figure the
 * top-up waits on. A payment since refunded in whole (or changed) is not credited on an old answer.
 */
async function stillPartlyRefunded(
  ctx: TopUpContext,
  t: TopUp,
): Promise<"yes" | "gateway_disagrees" | "gateway_unavailable"> {
  const { gateway, logger } = ctx;
  let answer: Lookup;
  try {
    answer = await gateway.lookup(t.paymentId);
  } catch (err) {
    logger.warn({ topUp: t.id, err: String(err) }, "partial refund: the gateway did not answer");
    return "gateway_unavailable";
  }
  const partly =
    answer.status === "partially_refunded" || (answer.status === "completed" && answer.refunded);
  if (partly && answer.totalPaisa === t.partialRefund?.uncredited?.reportedPaisa) return "yes";
  logger.warn(
    { topUp: t.id, status: answer.status, refunded: answer.refunded, total: answer.totalPaisa },
    "partial refund: the gateway's answer changed, the rest not credited",
  );
  return "gateway_disagrees";
}

/**
 * An admin's figure for a partial refund (state.ts `decideRefund`), in one step with the change
 * to refunded; then the customer is told the figure. After a credit it reverses exactly
 * `returnedPaisa` (as far as the balance holds it; the admins' refund alert names any shortfall).
 * Before any credit it credits the rest of the payment, within the caps, after asking the gateway
 * once more. A compare-and-set on the version: a second entry, from another tab or instance, finds
 * it refunded ("not_partial") and books nothing.
 */
export async function decidePartialRefund(
  ctx: TopUpContext,
  paymentId: string,
  returnedPaisa: number,
  adminId: number,
): Promise<RefundDecideResult> {
  const { store, gateway, logger, now } = ctx;
  const first = await store.get(gateway.name, paymentId);
  if (!first) return { ok: false, reason: "unknown" };
  const uncredited =
    first.status === "partial_refund" ? first.partialRefund?.uncredited : undefined;
  if (uncredited && returnedPaisa > 0 && returnedPaisa < uncredited.reportedPaisa) {
    const asked = await stillPartlyRefunded(ctx, first);
    if (asked !== "yes") return { ok: false, reason: asked };
  }
  // What the store last found the caps leave (a credit of the user's came in after our reading).
  let capLeft = Number.POSITIVE_INFINITY;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const current = await store.get(gateway.name, paymentId);
    if (!current) return { ok: false, reason: "unknown" };
    const limit =
      current.status === "partial_refund" && current.partialRefund?.uncredited
        ? Math.min(await creditLimit(ctx, current), capLeft)
        : 0;
    const at = now();
    const r = decideRefund(current, returnedPaisa, adminId, at, limit);
    if (!r.ok) return r;
    const rest = current.partialRefund?.uncredited ? "the rest credited, " : "";
    const note = `: partly, ${rest}${returnedPaisa} paisa returned (admin=${adminId})`;
    const tr = r.transition;
    const { transfer, reversed } = await transferFor(ctx, current, tr.effect, note);
    const next: TopUp =
      reversed === undefined ? tr.topUp : { ...tr.topUp, reversedPaisa: reversed };
    const cap = capOf(ctx, current, tr.effect);
    const out = await store.update(current.version, next, transfer, dueAt(ctx.opts, next, at), cap);
    if (!out.ok && out.reason === "version") continue;
    if (!out.ok && out.reason === "cap") {
      // Another credit of the user's took the room: decide again within what is left (refused).
      capLeft = Math.min(capLeft, out.limitPaisa);
      continue;
    }
    if (!out.ok) {
      // A spend raced the reversal: decide again from the new balance.
      if (out.refusal.code === "insufficient_funds" && tr.effect?.kind === "reverse") continue;
      logger.error({ topUp: current.id, refusal: out.refusal }, "partial refund booking refused");
      await alertAdmins(ctx, current, "ledger_refused");
      return { ok: false, reason: "ledger_refused" };
    }
    const stored = { ...next, version: current.version + 1 };
    logger.warn(
      {
        topUp: stored.id,
        paymentId,
        adminId,
        returnedPaisa,
        reversed: stored.reversedPaisa,
        credited: stored.creditedPaisa,
      },
      "partial refund decided",
    );
    await pushStatus(ctx, stored);
    return { ok: true, topUp: (await store.get(gateway.name, paymentId)) ?? stored };
  }
  throw new Error(`top-up ${paymentId}: too many concurrent writers`);
}

/**
 * An admin's rejection of a partial refund seen before any credit (state.ts
 * `rejectPartialRefund`): nothing credited, the customer told. Version-checked, as the figure.
 */
export async function rejectUncreditedRefund(
  ctx: TopUpContext,
  paymentId: string,
  adminId: number,
): Promise<RefundDecideResult> {
  const { store, gateway, logger, now } = ctx;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const current = await store.get(gateway.name, paymentId);
    if (!current) return { ok: false, reason: "unknown" };
    const at = now();
    const r = rejectPartialRefund(current, adminId, at);
    if (!r.ok) return r;
    const next = r.transition.topUp;
    const out = await store.update(current.version, next, undefined, dueAt(ctx.opts, next, at));
    if (!out.ok) continue;
    const stored = { ...next, version: current.version + 1 };
    logger.warn({ topUp: stored.id, paymentId, adminId }, "uncredited partial refund rejected");
    await pushStatus(ctx, stored);
    return { ok: true, topUp: (await store.get(gateway.name, paymentId)) ?? stored };
  }
  throw new Error(`top-up ${paymentId}: too many concurrent writers`);
}
