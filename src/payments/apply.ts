import { capOf, creditLimit } from "./caps.ts";
import { dueAt, MAX_ROUNDS, type TopUpContext } from "./context.ts";
import type { Lookup, PaymentId } from "./gateway/port.ts";
import { contradictsCredit, type TopUp, type TopUpEvent } from "./model.ts";
import { alertAdmins, pushStatus } from "./notices.ts";
import { needsLookup, transition } from "./state.ts";
import { transferFor } from "./transfers.ts";

/**
 * `apply` is the only code that changes a top-up on the gateway's word: it runs the state machine
 * (state.ts) and hands the result and its ledger transfer to the store's one atomic update.
 * Credits happen only for a lookup's Completed, with the amount the lookup reports. `confirm` and
 * `visit` ask the gateway first (a redirect is never trusted).
 */

/** The one place a top-up changes on a lookup. Returns the top-up as stored afterwards. */
export async function applyLookup(
  ctx: TopUpContext,
  gatewayName: string,
  paymentId: string,
  e: TopUpEvent,
): Promise<TopUp | null> {
  const { store, logger, now } = ctx;
  // What the store last found the caps leave (a credit of the user's came in after our reading).
  let capLeft = Number.POSITIVE_INFINITY;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const current = await store.get(gatewayName, paymentId);
    if (!current) return null;
    const at = now();
    // The caps are read only when a Completed could credit (they cost a read of the day's top-ups).
    const open = current.status === "initiated" || current.status === "pending";
    const limit =
      open && e.status === "completed" ? Math.min(await creditLimit(ctx, current), capLeft) : 0;
    const tr = transition(current, e, at, limit);
    if (!tr.changed) {
      if (e.status === "unknown" || (current.status === "completed" && contradictsCredit(e)))
        logger.warn(
          { topUp: current.id, status: current.status, word: e.statusWord },
          "top-up lookup: a status word the gateway does not document; nothing changed",
        );
      await pushStatus(ctx, current);
      return current;
    }
    const { transfer, reversed } = await transferFor(ctx, current, tr.effect);
    const next: TopUp =
      reversed === undefined ? tr.topUp : { ...tr.topUp, reversedPaisa: reversed };
    const cap = capOf(ctx, current, tr.effect);
    const out = await store.update(current.version, next, transfer, dueAt(ctx.opts, next, at), cap);
    if (!out.ok && out.reason === "version") continue;
    if (!out.ok && out.reason === "cap") {
      // Another credit of the user's took the room: decide again within what is left (held).
      capLeft = Math.min(capLeft, out.limitPaisa);
      continue;
    }
    if (!out.ok) {
      // A reversal raced a spend (insufficient funds): decide again from the new balance.
      if (out.refusal.code === "insufficient_funds") continue;
      // id_conflict: a transfer under this id with other fields exists. Nothing is written;
      // an admin must look (the reconciler alerts again on its next pass).
      logger.error({ topUp: current.id, refusal: out.refusal }, "top-up transfer refused");
      await alertAdmins(ctx, current, "ledger_refused");
      return current;
    }
    if (out.ledger?.ok && out.ledger.duplicate)
      logger.warn({ topUp: current.id }, "top-up transfer was already booked");
    const stored = { ...next, version: current.version + 1 };
    if (stored.status === "held")
      logger.warn(
        { topUp: stored.id, paymentId, held: stored.held, askedPaisa: stored.amountPaisa },
        "top-up held: the lookup does not confirm what was initiated; nothing credited",
      );
    else if (stored.status === "partial_refund")
      logger.warn(
        {
          topUp: stored.id,
          paymentId,
          credited: stored.creditedPaisa,
          uncredited: stored.partialRefund?.uncredited,
          mayBeWhole: stored.partialRefund?.mayBeWhole,
        },
        "top-up refunded at the gateway without its amount: no money moves until an admin enters it",
      );
    else if (stored.unknownAfterCredit !== current.unknownAfterCredit)
      logger.warn(
        { topUp: stored.id, status: stored.status, word: stored.unknownAfterCredit?.statusWord },
        "top-up lookup: after the credit, a status word the gateway does not document or one that says it was never paid; admins alerted, nothing moved",
      );
    else
      logger.info(
        { topUp: stored.id, from: tr.from, to: stored.status, credited: stored.creditedPaisa },
        "top-up changed",
      );
    await pushStatus(ctx, stored);
    return (await store.get(gatewayName, paymentId)) ?? stored;
  }
  throw new Error(`top-up ${paymentId}: too many concurrent writers`);
}

/**
 * Asks the gateway and applies its answer, for an open top-up, or a completed one while its
 * refund is watched (the reconciler's schedule). A held, partial_refund or final one is never
 * looked up again:
 * its stored state is the answer. Throws GatewayError when the gateway did not answer.
 */
export async function confirmTopUp(
  ctx: TopUpContext,
  gatewayName: string,
  paymentId: PaymentId,
): Promise<TopUp | null> {
  const { gateway, store } = ctx;
  if (gatewayName !== gateway.name) return null;
  const known = await store.get(gatewayName, paymentId);
  if (!known) return null;
  if (!needsLookup(known) && known.status !== "completed") return known;
  const found: Lookup = await gateway.lookup(paymentId);
  return applyLookup(ctx, gatewayName, paymentId, found);
}

/** The return page's question: only an open top-up is looked up; the rest answer from the store. */
export async function visitTopUp(ctx: TopUpContext, paymentId: PaymentId): Promise<TopUp | null> {
  const { gateway, store } = ctx;
  const known = await store.get(gateway.name, paymentId);
  if (!known || !needsLookup(known)) return known;
  return confirmTopUp(ctx, gateway.name, paymentId);
}
