import { capOf, creditLimit } from "./caps.ts";
import { dueAt, MAX_ROUNDS, type TopUpContext } from "./context.ts";
import type { Lookup } from "./gateway/port.ts";
import { SAID, type TopUp } from "./model.ts";
import { alertAdmins, pushStatus } from "./notices.ts";
import { type Decision, decide as decideHeld, heldReasons } from "./state.ts";
import { transferFor } from "./transfers.ts";
import type { DecideResult } from "./types.ts";

/**
 * An admin's decision on a held top-up (state.ts `decide`), booked like any credit: one step.
 * A credit asks the gateway once more first (stillPaid).
 */

type Asked =
  | { verdict: "paid"; answer: Lookup }
  | { verdict: "not_completed"; said: string; final: boolean }
  | { verdict: "unknown" | "not_held" | "gateway_disagrees" | "gateway_unavailable" };

/**
 * What the gateway said of a status hold that does not let it be credited, named (review s23-d,
 * should-fix 2: "still not clear" was said of a plain Refunded or Expired too); `final`: it will
 * not become Completed (refunded, expired, cancelled), so the admin should reject it.
 */
function notCompleted(a: Lookup): { verdict: "not_completed"; said: string; final: boolean } {
  if (a.status === "unknown")
    return { verdict: "not_completed", said: `"${a.statusWord ?? ""}"`, final: false };
  if (a.status === "completed")
    return a.refunded
      ? { verdict: "not_completed", said: "Completed, refunded", final: true }
      : { verdict: "not_completed", said: "Completed without an amount", final: false };
  const final = a.status !== "pending" && a.status !== "initiated";
  return { verdict: "not_completed", said: SAID[a.status], final };
}

/** Held on a status word the gateway does not document: whether it was paid was not known. */
const heldOnStatus = (t: TopUp) => t.held?.reasons.includes("status") ?? false;

/**
 * Before an admin's credit, the gateway is asked once more: a payment refunded or reversed at the
 * gateway since it was held (the refund watch ends) must not be credited on the strength of an
 * old answer. It must still say Completed, unrefunded, with the figure the top-up was held on; one
 * held on an unknown status word must now say Completed, unrefunded, with an amount (never
 * credited on the unknown word itself).
 */
async function stillPaid(ctx: TopUpContext, paymentId: string): Promise<Asked> {
  const { store, gateway, logger } = ctx;
  const held = await store.get(gateway.name, paymentId);
  if (!held) return { verdict: "unknown" };
  if (held.status !== "held" || !held.held) return { verdict: "not_held" };
  let answer: Lookup;
  try {
    answer = await gateway.lookup(held.paymentId);
  } catch (err) {
    logger.warn({ topUp: held.id, err: String(err) }, "held top-up: the gateway did not answer");
    return { verdict: "gateway_unavailable" };
  }
  const paid = answer.status === "completed" && !answer.refunded;
  const same = heldOnStatus(held)
    ? answer.totalPaisa > 0
    : answer.totalPaisa === held.held.reportedPaisa;
  if (paid && same) return { verdict: "paid", answer };
  // A status hold was never reported completed: "no longer" would be a false word.
  const asked: Asked = heldOnStatus(held) ? notCompleted(answer) : { verdict: "gateway_disagrees" };
  logger.warn(
    {
      topUp: held.id,
      status: answer.status,
      refunded: answer.refunded,
      totalPaisa: answer.totalPaisa,
    },
    "held top-up: the gateway does not report it paid as held, not credited",
  );
  return asked;
}

/**
 * A top-up held on an unknown status word, as the gateway's fresh Completed reports it: the
 * figures the admin's credit is decided on (what was paid), and the checks a Completed would
 * have made (another amount, currency, order), beside the status reason.
 */
function refreshed(t: TopUp, answer: Lookup | undefined): TopUp {
  if (!answer || !t.held || t.status !== "held" || !heldOnStatus(t)) return t;
  const reasons = heldReasons(t, answer, Number.POSITIVE_INFINITY);
  return {
    ...t,
    held: {
      ...t.held,
      reasons: ["status", ...reasons],
      reportedPaisa: answer.totalPaisa,
      transactionId: answer.transactionId,
      feePaisa: answer.feePaisa,
      ...(answer.currency !== undefined ? { currency: answer.currency.slice(0, 8) } : {}),
      ...(answer.purchaseOrderId !== undefined
        ? { purchaseOrderId: answer.purchaseOrderId.slice(0, 128) }
        : {}),
    },
  };
}

/**
 * An admin's decision on a held top-up (state.ts `decide`), booked like any credit: one step.
 * `shownPaisa`: the gateway's figure the admin was shown (the chat's button, the back office's
 * form); a credit goes through only while it is still the figure (a stale button, a re-posted form,
 * or a second admin after the first one's press refreshed it, is refused with the new figure).
 * Absent: the figure stored when the decision starts.
 */
export async function decideHeldTopUp(
  ctx: TopUpContext,
  paymentId: string,
  d: Decision,
  adminId: number,
  shownPaisa?: number,
): Promise<DecideResult> {
  const { store, gateway, logger, now } = ctx;
  let fresh: Lookup | undefined;
  let shown = shownPaisa;
  if (d !== "reject") {
    shown ??= (await store.get(gateway.name, paymentId))?.held?.reportedPaisa;
    const asked = await stillPaid(ctx, paymentId);
    if (asked.verdict === "not_completed")
      return { ok: false, reason: "not_completed", said: asked.said, final: asked.final };
    if (asked.verdict !== "paid") return { ok: false, reason: asked.verdict };
    fresh = asked.answer;
  }
  // What the store last found the caps leave (a credit of the user's came in after our reading).
  let capLeft = Number.POSITIVE_INFINITY;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const stored = await store.get(gateway.name, paymentId);
    if (!stored) return { ok: false, reason: "unknown" };
    const current = refreshed(stored, fresh);
    if (current.held && current.held.reportedPaisa !== stored.held?.reportedPaisa) {
      // Khalti's Completed reports another figure than stored: kept for the list (and the next
      // admin's buttons); then decided on below against the figure this admin was shown.
      const out = await store.update(
        stored.version,
        current,
        undefined,
        dueAt(ctx.opts, current, now()),
      );
      if (!out.ok) continue;
      logger.warn(
        { topUp: stored.id, was: stored.held?.reportedPaisa, now: current.held.reportedPaisa },
        "held top-up: the gateway now reports Completed with another amount",
      );
      continue;
    }
    const figure = current.status === "held" ? current.held?.reportedPaisa : undefined;
    if (d !== "reject" && figure !== undefined && figure !== shown) {
      logger.warn(
        { topUp: stored.id, shown, now: figure, adminId },
        "held top-up: the admin was shown another figure than the gateway reports; not credited",
      );
      return {
        ok: false,
        reason: "figure_changed",
        reportedPaisa: figure,
        shownPaisa: shown ?? 0,
      };
    }
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
    const written = { ...next, version: current.version + 1 };
    logger.warn(
      { topUp: written.id, paymentId, adminId, decision: d, credited: written.creditedPaisa },
      "held top-up decided",
    );
    await pushStatus(ctx, written);
    return { ok: true, topUp: (await store.get(gateway.name, paymentId)) ?? written };
  }
  throw new Error(`top-up ${paymentId}: too many concurrent writers`);
}
