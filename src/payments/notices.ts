import { account } from "../ledger/index.ts";
import { dueAt, MAX_ROUNDS, type TopUpContext } from "./context.ts";
import type { TopUp } from "./model.ts";
import { needsPush } from "./state.ts";
import type { AlertReason } from "./types.ts";

/**
 * Telling people: the customer's push of a top-up's status (at least once, once when nothing
 * crashes), the admins' alerts (held money, a refund, a refused transfer, no end in sight).
 */

/** Longer than a push's bounded Bot API calls (src/telegram/policy.ts: 25 s by default). */
const PUSH_LEASE_MS = 60_000;

/** True when every admin's alert was handed over. */
export async function alertAdmins(
  ctx: TopUpContext,
  t: TopUp,
  reason: AlertReason,
): Promise<boolean> {
  const { opts, logger } = ctx;
  let all = true;
  for (const chatId of opts.adminChatIds) {
    await opts.notify({ chatId, audience: "admin", reason, topUp: t }).catch((err) => {
      all = false;
      logger.warn({ err: String(err), topUp: t.id }, "top-up admin alert failed");
    });
  }
  return all;
}

/**
 * The admins' alert of a held top-up, apart from the customer's push (a customer who blocked the
 * bot must not keep the admins from hearing), recorded on the top-up; the reconciler sends what a
 * crash left unsent. Returns the top-up as stored afterwards.
 */
export async function alertHeld(ctx: TopUpContext, t: TopUp): Promise<TopUp> {
  const { store, now } = ctx;
  if (t.status !== "held" || t.heldAlerted) return t;
  // Not recorded as alerted unless it went out: the reconciler tries again (an admin who had it
  // already may get it twice, which beats none hearing of money held).
  if (!(await alertAdmins(ctx, t, "held"))) return t;
  let cur: TopUp | null = t;
  for (let round = 0; round < MAX_ROUNDS && cur?.status === "held"; round++) {
    const flagged: TopUp = { ...cur, heldAlerted: true };
    if ((await store.update(cur.version, flagged, undefined, dueAt(ctx.opts, flagged, now()))).ok)
      return { ...flagged, version: cur.version + 1 };
    cur = await store.get(t.gateway, t.paymentId);
  }
  return cur ?? t;
}

/**
 * Tells the customer (and for a refund the admins) of the top-up's status, then records that.
 * A short lease on the top-up (compare-and-set) makes one caller the sender when a redirect,
 * lookups and the reconciler arrive at once; a failed send gives the lease back, and a crash
 * leaves it to run out, after which the reconciler sends: at least once, and once when nothing
 * crashes.
 */
export async function pushStatus(ctx: TopUpContext, t: TopUp): Promise<void> {
  const { store, ledger, opts, logger, now } = ctx;
  if (!needsPush(t) || (t.pushLeaseUntil ?? 0) > now()) return;
  const at = now();
  const lease = { ...t, pushLeaseUntil: at + PUSH_LEASE_MS };
  if (!(await store.update(t.version, lease, undefined, dueAt(opts, lease, at))).ok) return;
  let held: TopUp = { ...lease, version: t.version + 1 };
  const { pushLeaseUntil: _, ...free } = held;
  try {
    const balancePaisa = (await ledger.balance(account.customer(t.userId))).availablePaisa;
    await opts.notify({ chatId: t.chatId, audience: "customer", topUp: t, balancePaisa });
    if (t.status === "refunded" && t.reversedPaisa !== undefined)
      await alertAdmins(ctx, t, "refund");
  } catch (err) {
    logger.warn({ err: String(err), topUp: t.id }, "top-up push failed; the reconciler retries");
    await store.update(held.version, free, undefined, now() + opts.lookupEveryMs);
    return;
  }
  // Record it, unless the status moved meanwhile (that status gets a push of its own).
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (held.status !== t.status) return;
    const { pushLeaseUntil: __, ...rest } = held;
    const told = { ...rest, notified: t.status, updatedAt: now() };
    if ((await store.update(held.version, told, undefined, dueAt(opts, told, now()))).ok) return;
    const again = await store.get(t.gateway, t.paymentId);
    if (!again) return;
    held = again;
  }
}
