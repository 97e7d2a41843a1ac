import { ProviderNotFoundError } from "../provider/errors.ts";
import type { Apply } from "./apply.ts";
import type { OrdersContext } from "./context.ts";
import { providerReference } from "./execute-request.ts";
import { isFinal, type Order, type OrderStatus } from "./model.ts";
import { answerAbout, eventFromStatus, type OrdersProvider } from "./provider-events.ts";

/**
 * An admin settles an order the aggregator never ended (its execute answer lost or "queued", no
 * webhook, the status endpoint answering pending, "not found" or errors for hours): without this
 * a prepaid customer's money stays held for good. Allowed once the order is older than
 * SETTLE_AFTER_MS. The aggregator's status endpoint is asked first, live: a final answer is
 * applied the normal way (no override). Only while it still gives no final word does the admin's
 * outcome go through `apply` like any other event (source "admin"), so the hold is voided or
 * posted (a success's debit inferred, inferred-debit.ts) in the order's own atomic step, once: a
 * second tap or a replay finds the order final. Who, when, why and what the aggregator said are
 * kept on the order (`settled`) and in its history.
 *
 * Maker-checker: with more than one admin configured, the first admin's settlement is a proposal
 * (recorded on the order, told to the other admins; nothing moves), and another admin's approval
 * of that very proposal settles it; the proposer cannot approve their own. Any admin may withdraw
 * or decline a proposal. With one admin, that admin settles alone (audited all the same).
 */

/** The failure's own words on the order (for staff); a customer reads notify-reason-settled. */
export const SETTLED_FAILED_MESSAGE =
  "Settled as failed by an admin: the aggregator never gave a final answer.";

/** The states an admin may settle: sent to the aggregator, no final word (never placed: unsent). */
const SETTLEABLE: OrderStatus[] = ["submitting", "unknown", "queued", "pending"];

export interface SettleRequest {
  reference: string;
  outcome: "success" | "failed";
  adminId: number;
  /** Why, in the admin's words (stored on the order); an approval keeps the proposal's. */
  reason: string;
  /** Every admin configured: told of the settlement and of a later contradiction; more than one
   * means a second admin approves (maker-checker). */
  admins: readonly number[];
  /**
   * Maker-checker: the admin whose proposal (seen by this admin) is approved. Absent: a new
   * proposal; a proposal found waiting is then another's, never approved blindly.
   */
  approves?: number;
}

export type SettleResult =
  | { ok: true; done: "settled" | "proposed"; order: Order; aggregator: string }
  | { ok: false; code: "unknown" }
  /** Final already (a second tap, or the aggregator's word came meanwhile). */
  | { ok: false; code: "final"; order: Order }
  | { ok: false; code: "too_young"; order: Order; readyAt: number }
  | { ok: false; code: "not_sent"; order: Order }
  /** The aggregator answered final just now: that answer was applied instead. */
  | { ok: false; code: "aggregator_final"; order: Order }
  /** Maker-checker: this admin's own proposal waits for another admin. */
  | { ok: false; code: "own_proposal"; order: Order }
  /** Maker-checker: another proposal (another outcome, or made meanwhile) waits on the order. */
  | { ok: false; code: "other_proposal"; order: Order }
  /** Maker-checker: the proposal to approve was withdrawn or declined meanwhile. */
  | { ok: false; code: "no_proposal"; order: Order };

export type Settleable =
  | { ok: true }
  | { ok: false; code: "final" }
  | { ok: false; code: "not_sent" }
  | { ok: false; code: "too_young"; readyAt: number };

/** Whether an order may be settled now (no I/O): what the admin is shown before deciding. */
export function settleable(order: Order, now: number, settleAfterMs: number): Settleable {
  if (isFinal(order.status)) return { ok: false, code: "final" };
  // A placed order was never sent: the reconciler fails it as not submitted, not an admin.
  if (!SETTLEABLE.includes(order.status)) return { ok: false, code: "not_sent" };
  const readyAt = order.createdAt + settleAfterMs;
  return now < readyAt ? { ok: false, code: "too_young", readyAt } : { ok: true };
}

/** Whether a second admin must approve: more than one admin configured. */
export const needsApproval = (admins: readonly number[], adminId: number): boolean =>
  new Set([...admins, adminId]).size > 1;

export function createSettle(
  ctx: OrdersContext,
  deps: {
    provider: Pick<OrdersProvider, "statusByReference">;
    apply: Apply;
    settleAfterMs: number;
  },
) {
  const { store, now } = ctx;

  /**
   * Asks the aggregator; applies its answer. `final`: it said final; else what it said, in words.
   * Only the question may come back as "no answer": a write of its answer that fails (a Redis
   * timeout, a conflict) goes up, so nothing is settled and the admin tries again. Taken as "no
   * answer", it let the admin's outcome through against the aggregator's final word (a success
   * voided: the customer refunded for a recharge the aggregator delivered), and recorded the
   * aggregator as silent (s21 settle review, finding 1).
   */
  async function askAggregator(order: Order): Promise<{ final: Order } | { said: string }> {
    const asked = providerReference(order);
    let answer: ReturnType<typeof answerAbout>;
    try {
      answer = answerAbout(await deps.provider.statusByReference(order.region, asked), asked);
    } catch (err) {
      if (err instanceof ProviderNotFoundError) return { said: "not found" };
      const why = err instanceof Error ? err.message : String(err);
      return { said: `no answer (${why.slice(0, 120)})` };
    }
    const event = eventFromStatus(answer, "status", now(), "asked before an admin's settlement");
    const applied = await deps.apply({ reference: order.reference, ...event }, order);
    if (applied.order && isFinal(applied.order.status)) return { final: applied.order };
    return { said: `status ${answer.status.slice(0, 40)}` };
  }

  /** What stands in the way of this admin's request, before the aggregator is asked. */
  function refusal(order: Order, req: SettleRequest): SettleResult | null {
    const allowed = settleable(order, now(), deps.settleAfterMs);
    if (!allowed.ok) return { ...allowed, order };
    if (!needsApproval(req.admins, req.adminId)) return null;
    const p = order.settleProposal;
    // An approval names the proposal its admin saw; one gone meanwhile is not approved blindly.
    if (!p) return req.approves === undefined ? null : { ok: false, code: "no_proposal", order };
    if (p.by === req.adminId) return { ok: false, code: "own_proposal", order };
    if (p.by !== req.approves || p.outcome !== req.outcome) {
      return { ok: false, code: "other_proposal", order };
    }
    return null;
  }

  /** The order as it is after an event that changed nothing: final, or another proposal. */
  async function overtaken(reference: string, seen: Order | null): Promise<SettleResult> {
    const current = seen ?? (await store.get(reference));
    if (!current) return { ok: false, code: "unknown" };
    if (isFinal(current.status)) return { ok: false, code: "final", order: current };
    return { ok: false, code: "other_proposal", order: current };
  }

  async function propose(order: Order, req: SettleRequest, said: string): Promise<SettleResult> {
    const r = await deps.apply({
      reference: order.reference,
      source: "admin",
      status: null,
      at: now(),
      expect: SETTLEABLE,
      propose: {
        by: req.adminId,
        outcome: req.outcome,
        reason: req.reason.trim().slice(0, 200),
        admins: [...new Set([...req.admins, req.adminId])].slice(0, 50),
      },
    });
    if (r.outcome !== "recorded" || !r.order) return overtaken(order.reference, r.order);
    ctx.log?.warn(
      { reference: order.reference, outcome: req.outcome, admin: req.adminId, aggregator: said },
      "order settlement proposed by an admin; another admin approves",
    );
    return { ok: true, done: "proposed", order: r.order, aggregator: said };
  }

  async function decide(order: Order, req: SettleRequest, said: string): Promise<SettleResult> {
    // An approval settles the proposal as it was made: its admin, its outcome, its reason.
    const p = needsApproval(req.admins, req.adminId) ? order.settleProposal : undefined;
    const by = p?.by ?? req.adminId;
    const reason = p?.reason ?? req.reason.trim().slice(0, 200);
    const approved = p ? ` (approved by admin ${req.adminId})` : "";
    const r = await deps.apply({
      reference: order.reference,
      source: "admin",
      status: req.outcome,
      at: now(),
      note: `settled by admin ${by}${approved}: ${reason}`.slice(0, 300),
      ...(req.outcome === "failed" ? { providerMessage: SETTLED_FAILED_MESSAGE } : {}),
      expect: SETTLEABLE,
      settle: {
        by,
        ...(p ? { approvedBy: req.adminId } : {}),
        reason,
        aggregator: said,
        admins: [...new Set([...req.admins, req.adminId])].slice(0, 50),
      },
    });
    // Final meanwhile (the aggregator's word, another admin's tap) or the proposal withdrawn.
    if (r.outcome !== "changed" || !r.order) return overtaken(order.reference, r.order);
    ctx.log?.warn(
      {
        reference: order.reference,
        outcome: req.outcome,
        by,
        approvedBy: p ? req.adminId : undefined,
        reason,
        aggregator: said,
      },
      "order settled by an admin",
    );
    return { ok: true, done: "settled", order: r.order, aggregator: said };
  }

  async function settle(req: SettleRequest): Promise<SettleResult> {
    const order = await store.get(req.reference);
    if (!order) return { ok: false, code: "unknown" };
    const refused = refusal(order, req);
    if (refused) return refused;
    const asked = await askAggregator(order);
    if ("final" in asked) {
      ctx.log?.warn(
        { reference: order.reference, status: asked.final.status, admin: req.adminId },
        "settlement not needed: the aggregator answered final, applied",
      );
      return { ok: false, code: "aggregator_final", order: asked.final };
    }
    const maker = needsApproval(req.admins, req.adminId) && !order.settleProposal;
    return maker ? propose(order, req, asked.said) : decide(order, req, asked.said);
  }

  /** Any admin withdraws (their own) or declines (another's) the proposal waiting on the order. */
  async function withdraw(reference: string, adminId: number): Promise<Order | null> {
    const r = await deps.apply({
      reference,
      source: "admin",
      status: null,
      at: now(),
      withdraw: { by: adminId },
    });
    return r.outcome === "recorded" ? r.order : null;
  }

  return { settle, withdraw };
}
