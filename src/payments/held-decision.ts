import { capOf, creditLimit } from "./caps.ts";
import { dueAt, MAX_ROUNDS, type TopUpContext } from "./context.ts";
import type { Lookup } from "./gateway/port.ts";
import { alertAdmins, pushStatus } from "./notices.ts";
import { type Decision, decide as decideHeld } from "./state.ts";
import { transferFor } from "./transfers.ts";
import type { DecideResult } from "./types.ts";

/**
 * An admin's decision on a held top-up (state.ts `decide`), booked like any credit: one step.
 * A credit asks the gateway once more first (stillPaid).
 */

/**
 * Before an admin's credit, the gateway is asked once more: a payment refunded or reversed at the
 * gateway since it was held (the refund watch ends) must not be credited on the strength of an
 * old answer. It must still say Completed, unrefunded, with the figure the top-up was held on.
 */
async function stillPaid(
  ctx: TopUpContext,
  paymentId: string,
): Promise<"paid" | "unknown" | "not_held" | "gateway_disagrees" | "gateway_unavailable"> {
  const { store, gateway, logger } = ctx;
  const held = await store.get(gateway.name, paymentId);
  if (!held) return "unknown";
  if (held.status !== "held" || !held.held) return "not_held";
  let answer: Lookup;
  try {
    answer = await gateway.lookup(held.paymentId);
  } catch (err) {
    logger.warn({ topUp: held.id, err: String(err) }, "held top-up: the gateway did not answer");
    return "gateway_unavailable";
  }
  const same =
    answer.status === "completed" &&
    !answer.refunded &&
    answer.totalPaisa === held.held.reportedPaisa;
  if (same) return "paid";
  logger.warn(
    {
      topUp: held.id,
      status: answer.status,
      refunded: answer.refunded,
      totalPaisa: answer.totalPaisa,
    },
    "held top-up: the gateway's answer changed, not credited",
  );
  return "gateway_disagrees";
}

/** An admin's decision on a held top-up (state.ts `decide`), booked like any credit: one step. */
export async function decideHeldTopUp(
  ctx: TopUpContext,
  paymentId: string,
  d: Decision,
  adminId: number,
): Promise<DecideResult> {
  const { store, gateway, logger, now } = ctx;
  if (d !== "reject") {
    const asked = await stillPaid(ctx, paymentId);
    if (asked !== "paid") return { ok: false, reason: asked };
  }
  // What the store last found the caps leave (a credit of the user's came in after our reading).
  let capLeft = Number.POSITIVE_INFINITY;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const current = await store.get(gateway.name, paymentId);
    if (!current) return { ok: false, reason: "unknown" };
    const limit =
      current.status === "held" ? Math.min(await creditLimit(ctx, current), capLeft) : 0;
    const at = now();
    const r = decideHeld(current, d, adminId, at, limit);
    if (!r.ok) return r;
    const next = r.transition.topUp;
    const note = ` admin=${adminId} decision=${d} held=${current.held?.reasons.join("+")}`;
    const { transfer } = await transferFor(ctx, current, r.transition.effect, note);
    const cap = capOf(ctx, current, r.transition.effect);
    const out = await store.update(current.version, next, transfer, dueAt(ctx.opts, next, at), cap);
    if (!out.ok && out.reason === "version") continue;
    if (!out.ok && out.reason === "cap") {
      // Another credit of the user's took the room: decide again within what is left (refused).
      capLeft = Math.min(capLeft, out.limitPaisa);
      continue;
    }
    if (!out.ok) {
      logger.error({ topUp: current.id, refusal: out.refusal }, "held top-up credit refused");
      await alertAdmins(ctx, current, "ledger_refused");
      return { ok: false, reason: "ledger_refused" };
    }
    const stored = { ...next, version: current.version + 1 };
    logger.warn(
      { topUp: stored.id, paymentId, adminId, decision: d, credited: stored.creditedPaisa },
      "held top-up decided",
    );
    await pushStatus(ctx, stored);
    return { ok: true, topUp: (await store.get(gateway.name, paymentId)) ?? stored };
  }
  throw new Error(`top-up ${paymentId}: too many concurrent writers`);
}
