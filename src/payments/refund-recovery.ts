import { account } from "../ledger/index.ts";
import type { TransferInput } from "../ledger/model.ts";
import { dueAt, MAX_ROUNDS, type TopUpContext } from "./context.ts";
import {
  creditTransferId,
  recoveryTransferId,
  refundShortfall,
  type TopUp,
  writeOffTransferId,
} from "./model.ts";
import { alertAdmins, pushStatus } from "./notices.ts";

/**
 * A refund's shortfall (review s31-pay, 4b). When the gateway refunds a credit the customer
 * already holds for an order, the first reversal takes only what is available; before, the rest
 * was never taken: the order's failure gave the hold back, the customer could spend money the
 * payer already had back, and the clearing account kept showing money the gateway does not hold.
 * The rest stays owed on the top-up (`refundShortfall`) and the reconciler takes it back as the
 * balance rises, never below zero, each taking its own transfer (`…:refund:<n>`) booked in the
 * top-up's compare-and-set (two passes, or two instances, book it once); the customer is told
 * of each. What cannot be taken back an admin writes off with a reason (`writeOffRefund`).
 */
export async function recoverRefund(ctx: TopUpContext, first: TopUp): Promise<TopUp> {
  const { store, ledger, logger, now } = ctx;
  let t: TopUp | null = first;
  for (let round = 0; round < MAX_ROUNDS && t; round++) {
    const rest = refundShortfall(t);
    const customer = account.customer(t.userId);
    const available = rest > 0 ? (await ledger.balance(customer)).availablePaisa : 0;
    const take = Math.min(rest, available);
    if (take <= 0) break;
    const at = now();
    const r = t.refundRecovery ?? { transfers: 0, takenPaisa: 0, toldPaisa: 0, at };
    const n = r.transfers + 1;
    const next: TopUp = {
      ...t,
      reversedPaisa: (t.reversedPaisa ?? 0) + take,
      refundRecovery: { ...r, transfers: n, takenPaisa: r.takenPaisa + take, at },
      updatedAt: at,
    };
    const transfer: TransferInput = {
      id: recoveryTransferId(t.gateway, t.paymentId, n + 1),
      debit: customer,
      credit: account.merchant.gateway(t.gateway),
      amountPaisa: take,
      kind: "reversal",
      reference: creditTransferId(t.gateway, t.paymentId),
      reason: `${t.gateway} refunded the payment; the rest the balance lacked then`,
    };
    const out = await store.update(t.version, next, transfer, dueAt(ctx.opts, next, at));
    if (out.ok) {
      const stored = { ...next, version: t.version + 1 };
      logger.info(
        { topUp: t.id, takenPaisa: take, stillOwedPaisa: refundShortfall(stored) },
        "top-up refund: the rest the balance lacked taken back",
      );
      await pushStatus(ctx, stored);
      return stored;
    }
    // A version race (another pass or instance took it, or a push was recorded), or a spend
    // raced the taking: read again and decide from the new record and balance.
    if (
      out.reason === "version" ||
      (out.reason === "ledger" && out.refusal.code === "insufficient_funds")
    ) {
      t = await store.get(t.gateway, t.paymentId);
      continue;
    }
    logger.error({ topUp: t.id, out }, "top-up refund's rest: transfer refused");
    await alertAdmins(ctx, t, "ledger_refused");
    break;
  }
  if (t) await pushStatus(ctx, t);
  return t ?? first;
}

export type WriteOffResult =
  | { ok: true; topUp: TopUp; writtenOffPaisa: number }
  | { ok: false; reason: "unknown" | "nothing_owed" | "reason" | "ledger_refused" };

/**
 * An admin's write-off of a refund's shortfall that cannot be taken back (the customer will not
 * add money again): booked merchant:adjustments → the gateway's clearing account with the admin's
 * reason (kind `adjustment`, id `topup:<gateway>:<pidx>:writeoff`, once per top-up), so the
 * clearing account again shows what the gateway holds and the loss stands in the books as one;
 * written on the top-up in the same step, which ends the recovery. Refused when nothing is owed.
 */
export async function writeOffRefund(
  ctx: TopUpContext,
  paymentId: string,
  adminId: number,
  reason: string,
): Promise<WriteOffResult> {
  const { store, gateway, logger, now } = ctx;
  const why = reason.trim().slice(0, 200);
  if (!why) return { ok: false, reason: "reason" };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const t = await store.get(gateway.name, paymentId);
    if (!t) return { ok: false, reason: "unknown" };
    const rest = refundShortfall(t);
    if (rest <= 0) return { ok: false, reason: "nothing_owed" };
    const at = now();
    const r = t.refundRecovery ?? { transfers: 0, takenPaisa: 0, toldPaisa: 0, at };
    const writtenOff = { paisa: rest, adminId, reason: why, at };
    const next: TopUp = { ...t, refundRecovery: { ...r, at, writtenOff }, updatedAt: at };
    const out = await store.update(
      t.version,
      next,
      {
        id: writeOffTransferId(t.gateway, t.paymentId),
        debit: account.merchant.adjustments,
        credit: account.merchant.gateway(t.gateway),
        amountPaisa: rest,
        kind: "adjustment",
        reference: creditTransferId(t.gateway, t.paymentId),
        reason: `refund's rest written off by admin ${adminId}: ${why}`,
      },
      dueAt(ctx.opts, next, at),
    );
    if (out.ok) {
      logger.warn(
        { topUp: t.id, adminId, writtenOffPaisa: rest },
        "top-up refund's rest written off",
      );
      return { ok: true, topUp: { ...next, version: t.version + 1 }, writtenOffPaisa: rest };
    }
    if (out.reason === "version") continue;
    logger.error({ topUp: t.id, out }, "top-up refund's write-off refused");
    return { ok: false, reason: "ledger_refused" };
  }
  return { ok: false, reason: "ledger_refused" };
}
