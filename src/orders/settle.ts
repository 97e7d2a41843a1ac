import type { Apply } from "./apply.ts";
import type { OrdersContext } from "./context.ts";
import { isFinal, type Order } from "./model.ts";
import type { OrdersProvider } from "./provider-events.ts";
import { askAggregator, stoppedBy, type UnsureCause } from "./settle-ask.ts";
import { needsApproval, type SamePerson, SETTLEABLE, settleable } from "./settle-rules.ts";
import { nextAskAt } from "./settled-watch.ts";

// Moved out for size (pure moves), named here still for every importer.
export { UNSURE_CAUSES, type UnsureCause } from "./settle-ask.ts";
export {
  needsApproval,
  type SamePerson,
  type Settleable,
  samePersonOf,
  settleable,
} from "./settle-rules.ts";

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
 * A final answer that is not applied (another transaction id than the order's) stops the
 * settlement too: the admin is told what the aggregator said and resolves it by hand; a failed
 * write of the answer stops it as well ("answer_unwritten": nothing settled; the admin tries
 * again and finds the order as it then stands). An answer about another recharge under the
 * reference (answer-fits.ts) is recorded, settles nothing and leaves the admin's word. "Not found", a refused or unreadable
 * query (which may hide one) or a word nobody understood ("refunded") refuses a settlement as succeeded: charging for what may never have
 * happened needs the aggregator's own word, not an admin's guess (a failure voids, harmless).
 *
 * Maker-checker: with more than one person among the admins, the first admin's settlement is a
 * proposal (recorded on the order, told to the other admins; nothing moves), and another person's
 * approval of that very proposal (its admin and time) settles it; the proposer cannot approve
 * their own from any of their chats (ADMIN_IDS groups one person's ids: `123=wa:+977…`). Any
 * admin may withdraw or decline a proposal. With one person, that admin settles alone (audited).
 */

/** The failure's own words on the order (for staff); a customer reads notify-reason-settled. */
export const SETTLED_FAILED_MESSAGE =
  "Settled as failed by an admin: the aggregator never gave a final answer.";

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
   * Maker-checker: the proposal (its admin and time, as seen by this admin) approved. Absent: a
   * new proposal; a proposal found waiting is then another's, never approved blindly.
   */
  approves?: { by: number; at: number };
}

export type SettleResult =
  | { ok: true; done: "settled" | "proposed"; order: Order; aggregator: string }
  | { ok: false; code: "unknown" }
  /** Final already (a second tap, or the aggregator's word came meanwhile). */
  | { ok: false; code: "final"; order: Order }
  | { ok: false; code: "disabled"; order: Order }
  | { ok: false; code: "too_young"; order: Order; readyAt: number }
  | { ok: false; code: "not_sent"; order: Order }
  /** The aggregator answered final just now: that answer was applied instead. */
  | { ok: false; code: "aggregator_final"; order: Order }
  /**
   * The aggregator answered final just now but its answer was not applied (another transaction
   * id than the order's): nothing settled; resolve it with the aggregator. `said`: its answer.
   */
  | { ok: false; code: "aggregator_disagrees"; order: Order; said: string }
  /**
   * The aggregator's answer could not be written (a Redis error): nothing was settled by hand;
   * the admin tries again (the answer, if its write did go through, is then found applied).
   */
  | { ok: false; code: "answer_unwritten"; order: Order; said: string }
  /**
   * The aggregator's answer just asked may hide a "not found" (`cause`: which answer it was), so
   * no settlement as succeeded. `said`: its answer.
   */
  | { ok: false; code: "aggregator_unsure"; order: Order; said: string; cause: UnsureCause }
  /** Maker-checker: this admin's own proposal waits for another admin. */
  | { ok: false; code: "own_proposal"; order: Order }
  /** Maker-checker: another proposal (another outcome, or made meanwhile) waits on the order. */
  | { ok: false; code: "other_proposal"; order: Order }
  /** Maker-checker: the proposal to approve was withdrawn or declined meanwhile. */
  | { ok: false; code: "no_proposal"; order: Order };

/**
 * Any admin withdraws (their own) or declines (another's) the proposal waiting on the order, the
 * one they were shown (its admin and time), as an approval names it: withdrawn and made anew
 * meanwhile, the new one is left alone (null, as for no proposal).
 */
async function withdrawProposal(
  deps: { apply: Apply; now: () => number; same: SamePerson },
  reference: string,
  adminId: number,
  proposal: { by: number; at: number },
): Promise<Order | null> {
  const declined = !deps.same(proposal.by, adminId);
  const r = await deps.apply({
    reference,
    source: "admin",
    status: null,
    at: deps.now(),
    withdraw: {
      by: adminId,
      proposal: { by: proposal.by, at: proposal.at },
      ...(declined ? { declined } : {}),
    },
  });
  return r.outcome === "recorded" ? r.order : null;
}

export function createSettle(
  ctx: OrdersContext,
  deps: {
    provider: Pick<OrdersProvider, "statusByReference">;
    apply: Apply;
    settleAfterMs: number;
    /** SETTLE_ENABLED (default off in config): no settlement or proposal is written while off. */
    enabled?: boolean;
    /** One person's ids (ADMIN_IDS groups): such a person never approves their own proposal. */
    samePerson?: SamePerson;
  },
) {
  const { store, now } = ctx;
  const same = deps.samePerson ?? ((a: number, b: number) => a === b);

  /** What stands in the way of this admin's request, before the aggregator is asked. */
  function refusal(order: Order, req: SettleRequest): SettleResult | null {
    const allowed = settleable(order, now(), deps.settleAfterMs, deps.enabled ?? true);
    if (!allowed.ok) return { ...allowed, order };
    if (!needsApproval(req.admins, req.adminId, same)) return null;
    const p = order.settleProposal;
    // An approval names the proposal its admin saw; one gone meanwhile is not approved blindly.
    if (!p) return req.approves === undefined ? null : { ok: false, code: "no_proposal", order };
    if (same(p.by, req.adminId)) return { ok: false, code: "own_proposal", order };
    const a = req.approves;
    if (!a || p.by !== a.by || p.at !== a.at || p.outcome !== req.outcome) {
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
    const p = needsApproval(req.admins, req.adminId, same) ? order.settleProposal : undefined;
    const by = p?.by ?? req.adminId;
    const reason = p?.reason ?? req.reason.trim().slice(0, 200);
    const approved = p ? ` (approved by admin ${req.adminId})` : "";
    // Watched before the settlement is written, so a process lost in between leaves no settled
    // order unasked; an entry whose settlement never came is dropped when due (settled-watch.ts).
    await store.watchSettled(order.reference, nextAskAt(now(), now()));
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
        ...(p ? { approvedBy: req.adminId, proposedAt: p.at } : {}),
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
    const asked = await askAggregator(deps, now, order);
    if (asked.kind === "final") {
      ctx.log?.warn(
        { reference: order.reference, status: asked.order.status, admin: req.adminId },
        "settlement not needed: the aggregator answered final, applied",
      );
      return { ok: false, code: "aggregator_final", order: asked.order };
    }
    if (asked.kind === "unwritten") {
      ctx.log?.warn(
        { reference: order.reference, admin: req.adminId, said: asked.said, err: asked.why },
        "settlement stopped: the aggregator's answer could not be written; nothing settled",
      );
      return { ok: false, code: "answer_unwritten", order, said: asked.said };
    }
    const stop = stoppedBy(asked, req.outcome);
    if (stop) {
      ctx.log?.warn(
        { reference: order.reference, admin: req.adminId, outcome: req.outcome, said: stop.said },
        "settlement refused: the aggregator's answer stands in the way",
      );
      return { ok: false, ...stop, order: (await store.get(order.reference)) ?? order };
    }
    const maker = needsApproval(req.admins, req.adminId, same) && !order.settleProposal;
    return maker ? propose(order, req, asked.said) : decide(order, req, asked.said);
  }

  return {
    settle,
    withdraw: (reference: string, adminId: number, proposal: { by: number; at: number }) =>
      withdrawProposal({ apply: deps.apply, now, same }, reference, adminId, proposal),
    /** Whether a second person must approve this admin's settlement. */
    needsApproval: (admins: readonly number[], adminId: number) =>
      needsApproval(admins, adminId, same),
    samePerson: same,
  };
}
