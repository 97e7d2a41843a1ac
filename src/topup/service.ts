import { randomBytes } from "node:crypto";
import { GatewayError, type Lookup, type PaymentGateway, type PaymentId } from "../gateway/port.ts";
import { account } from "../ledger/index.ts";
import type { TransferInput } from "../ledger/model.ts";
import type { LedgerStore } from "../ledger/store.ts";
import type { Logger } from "../logger.ts";
import { nepalDayStart } from "../nepal-time.ts";
import { creditTransferId, reversalTransferId, type TopUp, type TopUpEvent } from "./model.ts";
import {
  type Decision,
  decide as decideHeld,
  type Effect,
  needsLookup,
  needsPush,
  transition,
} from "./state.ts";
import type { TopUpStore } from "./store.ts";

/**
 * The top-up service. `apply` is the only code that changes a top-up: it runs the state machine
 * and hands the result and its ledger transfer to the store's one atomic update. Credits happen
 * only for a lookup's Completed, with the amount the lookup reports, under a transfer id derived
 * from the payment id (a second credit is a ledger duplicate). Pushes follow a real change, at
 * least once: the top-up records the status the customer was told of, and the reconciler pushes
 * what a crash left untold.
 */

/** Khalti's minimum: Rs 10. */
export const TOPUP_MIN_PAISA = 1_000;

export interface TopUpNotice {
  chatId: number;
  audience: "customer" | "admin";
  /** Admin notices: a refund reversed a credit, the books refused a transfer, or no end in sight. */
  reason?: AlertReason;
  topUp: TopUp;
  /** The customer's available balance after the change (customer notices). */
  balancePaisa?: number;
}

export interface TopUpsOptions {
  store: TopUpStore;
  gateway: PaymentGateway;
  ledger: LedgerStore;
  /** Sends one notice; throws when it could not (the reconciler tries again). */
  notify: (n: TopUpNotice) => Promise<void>;
  logger: Logger;
  now?: () => number;
  maxPaisa: number;
  dailyCapPaisa: number;
  /** Our return page (absolute, no query). */
  returnUrl: string;
  websiteUrl: string;
  adminChatIds: readonly number[];
  /** How often an open top-up is looked up. */
  lookupEveryMs: number;
  /** How long after the credit a refund is watched for, and how often. */
  refundWatchMs: number;
  refundCheckEveryMs: number;
}

export type AlertReason = "refund" | "ledger_refused" | "stuck" | "held";

export type DecideResult =
  | { ok: true; topUp: TopUp }
  | {
      ok: false;
      reason:
        | "unknown"
        | "not_held"
        | "paid_less"
        | "above_cap"
        | "currency"
        | "ledger_refused"
        | "gateway_disagrees"
        | "gateway_unavailable";
    };

export type StartResult =
  | { ok: true; topUp: TopUp }
  | { ok: false; reason: "below" | "above"; limitPaisa: number }
  | { ok: false; reason: "daily_cap"; remainingPaisa: number }
  | { ok: false; reason: "unavailable" };

const DAY_MS = 86_400_000;
/** Version races (two lookups at once) settle in a few rounds. */
const MAX_ROUNDS = 10;
/** Longer than a push's bounded Bot API calls (src/telegram/policy.ts: 25 s by default). */
const PUSH_LEASE_MS = 60_000;
/** An open top-up this long after its link expired has no end in sight: the admins are told. */
export const STUCK_AFTER_MS = 3_600_000;

export function createTopUps(opts: TopUpsOptions) {
  const { store, gateway, ledger, logger } = opts;
  const now = opts.now ?? Date.now;
  const clearing = account.merchant.gateway(gateway.name);

  const dayStart = nepalDayStart;

  /** When the reconciler should look at `t` next; null: never again. */
  const dueAt = (t: TopUp, at: number): number | null => {
    if (needsPush(t) || (t.status === "held" && !t.heldAlerted)) return at + opts.lookupEveryMs;
    if (needsLookup(t)) {
      // Long past its link's expiry with no end from the gateway: an admin was told; look now
      // and then, and give up when the refund watch would have ended.
      if (at <= t.expiresAt + STUCK_AFTER_MS) return at + opts.lookupEveryMs;
      return t.createdAt + opts.refundWatchMs > at ? at + opts.refundCheckEveryMs : null;
    }
    if (t.status === "completed" && t.createdAt + opts.refundWatchMs > at)
      return at + opts.refundCheckEveryMs;
    return null;
  };

  /** What counts against the daily cap: everything not ended without money. */
  const counts = (t: TopUp) =>
    t.status !== "expired" && t.status !== "cancelled" && t.status !== "rejected";
  const usedSum = (ts: TopUp[]) =>
    ts.filter(counts).reduce((sum, t) => sum + (t.creditedPaisa ?? t.amountPaisa), 0);

  async function usedToday(userId: number): Promise<number> {
    return usedSum(await store.listByUser(userId, dayStart(now())));
  }

  /**
   * The most `t` may credit now: TOPUP_MAX_AMOUNT, and what the daily cap leaves beside the user's
   * other top-ups of the day `t` was started on (the caps hold at credit time, not only at start).
   */
  async function creditLimit(t: TopUp): Promise<number> {
    const from = dayStart(t.createdAt);
    // Only money that came in counts here: an open checkout may never be paid, and a held one is
    // checked against the caps again when an admin decides.
    const credited = (await store.listByUser(t.userId, from))
      .filter(
        (o) =>
          o.createdAt < from + DAY_MS && !(o.gateway === t.gateway && o.paymentId === t.paymentId),
      )
      .reduce((sum, o) => sum + (o.creditedPaisa ?? 0), 0);
    return Math.max(0, Math.min(opts.maxPaisa, opts.dailyCapPaisa - credited));
  }

  async function start(input: {
    userId: number;
    chatId: number;
    locale: string;
    amountPaisa: number;
  }): Promise<StartResult> {
    const { amountPaisa } = input;
    if (amountPaisa < TOPUP_MIN_PAISA)
      return { ok: false, reason: "below", limitPaisa: TOPUP_MIN_PAISA };
    if (amountPaisa > opts.maxPaisa)
      return { ok: false, reason: "above", limitPaisa: opts.maxPaisa };
    const remaining = opts.dailyCapPaisa - (await usedToday(input.userId));
    if (amountPaisa > remaining)
      return { ok: false, reason: "daily_cap", remainingPaisa: Math.max(0, remaining) };
    const id = `TU${randomBytes(10).toString("hex")}`;
    let checkout: Awaited<ReturnType<PaymentGateway["initiate"]>>;
    try {
      checkout = await gateway.initiate({
        amountPaisa,
        purchaseOrderId: id,
        purchaseOrderName: "Balance top-up",
        returnUrl: opts.returnUrl,
        websiteUrl: opts.websiteUrl,
      });
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      logger.warn({ kind: err.kind, detail: err.detail }, "top-up initiate failed");
      return { ok: false, reason: "unavailable" };
    }
    const at = now();
    const topUp: TopUp = {
      id,
      gateway: gateway.name,
      paymentId: checkout.paymentId,
      paymentUrl: checkout.paymentUrl,
      userId: input.userId,
      chatId: input.chatId,
      locale: input.locale,
      amountPaisa,
      status: "initiated",
      createdAt: at,
      updatedAt: at,
      expiresAt: checkout.expiresAt,
      version: 0,
    };
    await store.create(topUp, at + opts.lookupEveryMs);
    logger.info({ topUp: id, paymentId: topUp.paymentId, amountPaisa }, "top-up initiated");
    return { ok: true, topUp };
  }

  /** The ledger transfer that goes with a transition, or a refusal to try. */
  async function transferFor(
    t: TopUp,
    effect: Effect | undefined,
    note = "",
  ): Promise<{ transfer?: TransferInput; reversed?: number }> {
    if (!effect) return {};
    const customer = account.customer(t.userId);
    if (effect.kind === "credit") {
      return {
        transfer: {
          id: creditTransferId(t.gateway, t.paymentId),
          debit: clearing,
          credit: customer,
          amountPaisa: effect.amountPaisa,
          kind: "topup",
          // The journal carries what the accountant reconciles with the gateway's statement. The
          // lookup that completes the top-up is the only one that books, so this text is stable.
          reference: `${t.gateway} pidx=${t.paymentId} txn=${effect.transactionId ?? "-"} fee=${effect.feePaisa}${note}`,
        },
      };
    }
    // A refund takes the credit back as far as the balance allows (the customer may have spent
    // it); the admin is told of any shortfall.
    const available = (await ledger.balance(customer)).availablePaisa;
    const amount = Math.max(0, Math.min(effect.creditedPaisa, available));
    if (amount === 0) return { reversed: 0 };
    return {
      reversed: amount,
      transfer: {
        id: reversalTransferId(t.gateway, t.paymentId),
        debit: customer,
        credit: clearing,
        amountPaisa: amount,
        kind: "reversal",
        reference: creditTransferId(t.gateway, t.paymentId),
        reason: `${t.gateway} reports the payment refunded`,
      },
    };
  }

  /** The one place a top-up changes. Returns the top-up as stored afterwards. */
  async function apply(
    gatewayName: string,
    paymentId: string,
    e: TopUpEvent,
  ): Promise<TopUp | null> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const current = await store.get(gatewayName, paymentId);
      if (!current) return null;
      const at = now();
      // The caps are read only when a Completed could credit (they cost a read of the day's top-ups).
      const open = current.status === "initiated" || current.status === "pending";
      const limit = open && e.status === "completed" ? await creditLimit(current) : 0;
      const tr = transition(current, e, at, limit);
      if (!tr.changed) {
        await deliver(current);
        return current;
      }
      const { transfer, reversed } = await transferFor(current, tr.effect);
      const next: TopUp =
        reversed === undefined ? tr.topUp : { ...tr.topUp, reversedPaisa: reversed };
      const out = await store.update(current.version, next, transfer, dueAt(next, at));
      if (!out.ok && out.reason === "version") continue;
      if (!out.ok) {
        // A reversal raced a spend (insufficient funds): decide again from the new balance.
        if (out.refusal.code === "insufficient_funds") continue;
        // id_conflict: a transfer under this id with other fields exists. Nothing is written;
        // an admin must look (the reconciler alerts again on its next pass).
        logger.error({ topUp: current.id, refusal: out.refusal }, "top-up transfer refused");
        await alertAdmins(current, "ledger_refused");
        return current;
      }
      if (out.ledger?.ok && out.ledger.duplicate)
        logger.warn({ topUp: current.id }, "top-up transfer was already booked");
      const stored = { ...next, version: current.version + 1 };
      if (stored.status === "held")
        logger.warn(
          { topUp: stored.id, paymentId, held: stored.held, askedPaisa: stored.amountPaisa },
          "top-up held: the lookup does not match what was initiated; nothing credited",
        );
      else
        logger.info(
          { topUp: stored.id, from: tr.from, to: stored.status, credited: stored.creditedPaisa },
          "top-up changed",
        );
      await deliver(await alertHeld(stored));
      return (await store.get(gatewayName, paymentId)) ?? stored;
    }
    throw new Error(`top-up ${paymentId}: too many concurrent writers`);
  }

  /**
   * The admins' alert of a held top-up, apart from the customer's push (a customer who blocked the
   * bot must not keep the admins from hearing), recorded on the top-up; the reconciler sends what a
   * crash left unsent. Returns the top-up as stored afterwards.
   */
  async function alertHeld(t: TopUp): Promise<TopUp> {
    if (t.status !== "held" || t.heldAlerted) return t;
    // Not recorded as alerted unless it went out: the reconciler tries again (an admin who had it
    // already may get it twice, which beats none hearing of money held).
    if (!(await alertAdmins(t, "held"))) return t;
    let cur: TopUp | null = t;
    for (let round = 0; round < MAX_ROUNDS && cur?.status === "held"; round++) {
      const flagged: TopUp = { ...cur, heldAlerted: true };
      if ((await store.update(cur.version, flagged, undefined, dueAt(flagged, now()))).ok)
        return { ...flagged, version: cur.version + 1 };
      cur = await store.get(t.gateway, t.paymentId);
    }
    return cur ?? t;
  }

  /** True when every admin's alert was handed over. */
  async function alertAdmins(t: TopUp, reason: AlertReason): Promise<boolean> {
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
   * Tells the customer (and for a refund the admins) of the top-up's status, then records that.
   * A short lease on the top-up (compare-and-set) makes one caller the sender when a redirect,
   * lookups and the reconciler arrive at once; a failed send gives the lease back, and a crash
   * leaves it to run out, after which the reconciler sends: at least once, and once when nothing
   * crashes.
   */
  async function deliver(t: TopUp): Promise<void> {
    if (!needsPush(t) || (t.pushLeaseUntil ?? 0) > now()) return;
    const at = now();
    const lease = { ...t, pushLeaseUntil: at + PUSH_LEASE_MS };
    if (!(await store.update(t.version, lease, undefined, dueAt(lease, at))).ok) return;
    let held: TopUp = { ...lease, version: t.version + 1 };
    const { pushLeaseUntil: _, ...free } = held;
    try {
      const balancePaisa = (await ledger.balance(account.customer(t.userId))).availablePaisa;
      await opts.notify({ chatId: t.chatId, audience: "customer", topUp: t, balancePaisa });
      if (t.status === "refunded" && t.reversedPaisa !== undefined) await alertAdmins(t, "refund");
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
      if ((await store.update(held.version, told, undefined, dueAt(told, now()))).ok) return;
      const again = await store.get(t.gateway, t.paymentId);
      if (!again) return;
      held = again;
    }
  }

  /**
   * Asks the gateway and applies its answer, for an open top-up, or a completed one while its
   * refund is watched (the reconciler's schedule). A held or final one is never looked up again:
   * its stored state is the answer. Throws GatewayError when the gateway did not answer.
   */
  async function confirm(gatewayName: string, paymentId: PaymentId): Promise<TopUp | null> {
    if (gatewayName !== gateway.name) return null;
    const known = await store.get(gatewayName, paymentId);
    if (!known) return null;
    if (!needsLookup(known) && known.status !== "completed") return known;
    const found: Lookup = await gateway.lookup(paymentId);
    return apply(gatewayName, paymentId, found);
  }

  /** The return page's question: only an open top-up is looked up; the rest answer from the store. */
  async function visit(paymentId: PaymentId): Promise<TopUp | null> {
    const known = await store.get(gateway.name, paymentId);
    if (!known || !needsLookup(known)) return known;
    return confirm(gateway.name, paymentId);
  }

  /** An admin's decision on a held top-up (state.ts `decide`), booked like any credit: one step. */
  async function decide(paymentId: string, d: Decision, adminId: number): Promise<DecideResult> {
    if (d !== "reject") {
      const asked = await stillPaid(paymentId);
      if (asked !== "paid") return { ok: false, reason: asked };
    }
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const current = await store.get(gateway.name, paymentId);
      if (!current) return { ok: false, reason: "unknown" };
      const limit = current.status === "held" ? await creditLimit(current) : 0;
      const at = now();
      const r = decideHeld(current, d, adminId, at, limit);
      if (!r.ok) return r;
      const next = r.transition.topUp;
      const note = ` admin=${adminId} decision=${d} held=${current.held?.reasons.join("+")}`;
      const { transfer } = await transferFor(current, r.transition.effect, note);
      const out = await store.update(current.version, next, transfer, dueAt(next, at));
      if (!out.ok && out.reason === "version") continue;
      if (!out.ok) {
        logger.error({ topUp: current.id, refusal: out.refusal }, "held top-up credit refused");
        await alertAdmins(current, "ledger_refused");
        return { ok: false, reason: "ledger_refused" };
      }
      const stored = { ...next, version: current.version + 1 };
      logger.warn(
        { topUp: stored.id, paymentId, adminId, decision: d, credited: stored.creditedPaisa },
        "held top-up decided",
      );
      await deliver(stored);
      return { ok: true, topUp: (await store.get(gateway.name, paymentId)) ?? stored };
    }
    throw new Error(`top-up ${paymentId}: too many concurrent writers`);
  }

  /**
   * Before an admin's credit, the gateway is asked once more: a payment refunded or reversed at the
   * gateway since it was held (the refund watch ends) must not be credited on the strength of an
   * old answer. It must still say Completed, unrefunded, with the figure the top-up was held on.
   */
  async function stillPaid(
    paymentId: string,
  ): Promise<"paid" | "unknown" | "not_held" | "gateway_disagrees" | "gateway_unavailable"> {
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

  /** One reconciler pass: everything due is looked up (or pushed) again. */
  async function reconcile(limit = 50): Promise<number> {
    const due = await store.due(now(), limit);
    for (const [g, pid] of due) {
      try {
        const t = await store.get(g, pid);
        if (!t) continue;
        if (needsLookup(t) || t.status === "completed") await confirm(g, pid);
        else await deliver(await alertHeld(t));
        const after = await store.get(g, pid);
        if (
          after &&
          needsLookup(after) &&
          !after.stuckAlerted &&
          now() > after.expiresAt + STUCK_AFTER_MS
        ) {
          await alertAdmins(after, "stuck");
          const flagged = { ...after, stuckAlerted: true };
          await store.update(after.version, flagged, undefined, dueAt(flagged, now()));
          continue;
        }
        // Nothing changed (a Pending again, or a failed lookup): keep it on the schedule.
        if (after && after.version === t.version) {
          const at = now();
          await store.update(t.version, { ...t }, undefined, dueAt(t, at));
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

  return {
    gateway: gateway.name,
    minPaisa: TOPUP_MIN_PAISA,
    maxPaisa: opts.maxPaisa,
    start,
    apply,
    confirm,
    visit,
    decide,
    held: (limit = 20) => store.held(limit),
    reconcile,
    get: (paymentId: string) => store.get(gateway.name, paymentId),
    remainingToday: async (userId: number) =>
      Math.max(0, opts.dailyCapPaisa - (await usedToday(userId))),
  };
}

export type TopUps = ReturnType<typeof createTopUps>;
