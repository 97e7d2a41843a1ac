import {
  ProviderMalformedResponseError,
  ProviderNotFoundError,
  ProviderRejectedError,
} from "../provider/errors.ts";
import type { Apply } from "./apply.ts";
import type { OrdersContext } from "./context.ts";
import { providerReference } from "./execute-request.ts";
import { isFinal, type Order, type OrderStatus } from "./model.ts";
import {
  answerAbout,
  eventFromStatus,
  type OrdersProvider,
  OtherReferenceError,
} from "./provider-events.ts";
import { nextAskAt } from "./settled-watch.ts";

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

export type Settleable =
  | { ok: true }
  /** SETTLE_ENABLED is off: an older version may still run, which cannot read a settled order. */
  | { ok: false; code: "disabled" }
  | { ok: false; code: "final" }
  | { ok: false; code: "not_sent" }
  | { ok: false; code: "too_young"; readyAt: number };

/** Whether an order may be settled now (no I/O): what the admin is shown before deciding. */
export function settleable(
  order: Order,
  now: number,
  settleAfterMs: number,
  enabled = true,
): Settleable {
  if (isFinal(order.status)) return { ok: false, code: "final" };
  if (!enabled) return { ok: false, code: "disabled" };
  // A placed order was never sent: the reconciler fails it as not submitted, not an admin.
  if (!SETTLEABLE.includes(order.status)) return { ok: false, code: "not_sent" };
  const readyAt = order.createdAt + settleAfterMs;
  return now < readyAt ? { ok: false, code: "too_young", readyAt } : { ok: true };
}

/** Whether two chat ids are one person (ADMIN_IDS groups, `123=wa:+977…`). */
export type SamePerson = (a: number, b: number) => boolean;

/** One person per group of ids (ADMIN_IDS `123=wa:+977…`); an id in no group is its own person. */
export function samePersonOf(people: readonly (readonly number[])[] = []): SamePerson {
  // An id listed in two groups joins them (`1=wa:…,1=wa:…2`): one person, whatever the order.
  const parent = new Map<number, number>();
  const root = (id: number): number => {
    const up = parent.get(id) ?? id;
    return up === id ? id : root(up);
  };
  for (const ids of people) {
    const [first, ...rest] = ids.map(root);
    for (const r of rest) if (first !== undefined && r !== first) parent.set(r, first);
  }
  return (a, b) => a === b || root(a) === root(b);
}

/** Whether a second person must approve: an admin configured who is not this admin. */
export const needsApproval = (
  admins: readonly number[],
  adminId: number,
  same: SamePerson = (a, b) => a === b,
): boolean => admins.some((a) => !same(a, adminId));

/**
 * Why the aggregator's answer leaves a settlement as succeeded unsure (each may hide a "not
 * found"): it has no such order; it answered about another order; it refused the query in its
 * own error shape (a 4xx, or on a 200, whatever its words); its answer could not be read; it
 * answered a status word the bot does not know. Silence (a timeout, a 5xx, a gateway's page, the
 * connection) is none of these: the admin's word stands then.
 */
export const UNSURE_CAUSES = [
  "not_found",
  "other_order",
  "refused",
  "unreadable",
  "unknown_word",
] as const;
export type UnsureCause = (typeof UNSURE_CAUSES)[number];

/** What the aggregator said before a settlement, and whether it stops it. */
type Asked =
  | { kind: "final"; order: Order }
  | { kind: "disagrees"; said: string }
  /** Its answer's write failed: nothing may be settled on a word left unwritten. */
  | { kind: "unwritten"; said: string; why: string }
  /** `unsure`: why a settlement as succeeded is refused (absent: nothing stands in its way). */
  | { kind: "open"; said: string; unsure?: UnsureCause };

/**
 * Asks the aggregator (only the question may fail into "no answer") and applies its answer; a
 * failed write of the answer is "unwritten", so nothing is settled on a word left unwritten.
 */
async function askAggregator(
  deps: { provider: Pick<OrdersProvider, "statusByReference">; apply: Apply },
  now: () => number,
  order: Order,
): Promise<Asked> {
  const asked = providerReference(order);
  let answer: Awaited<ReturnType<typeof deps.provider.statusByReference>>;
  try {
    answer = answerAbout(await deps.provider.statusByReference(order.region, asked), asked);
  } catch (err) {
    if (err instanceof ProviderNotFoundError)
      return { kind: "open", said: "not found", unsure: "not_found" };
    // An answer about another order is not silence: the aggregator may be confused about this
    // one, so "succeeded" is refused as for "not found" (s21 final review, finding 4).
    if (err instanceof OtherReferenceError)
      return {
        kind: "open",
        said: `an answer about another order (${err.said.slice(0, 40)})`,
        unsure: "other_order",
      };
    const why = err instanceof Error ? err.message : String(err);
    // The aggregator refused the query in its own words (a 200 error envelope, which may say "not
    // found" and is no longer read as such: provider/endpoints.ts; another 4xx) or answered what
    // cannot be read: either may hide a "not found", so "succeeded" is refused as for one. Only
    // silence (a timeout, a 5xx, a gateway's page, the connection) leaves the admin's word.
    const unsure: UnsureCause | undefined =
      err instanceof ProviderRejectedError
        ? "refused"
        : err instanceof ProviderMalformedResponseError
          ? "unreadable"
          : undefined;
    const what =
      unsure === undefined ? "no answer" : unsure === "refused" ? "refused" : "unreadable answer";
    const said = `${what} (${why.slice(0, 120)})`;
    return unsure === undefined ? { kind: "open", said } : { kind: "open", said, unsure };
  }
  const event = eventFromStatus(
    order,
    answer,
    "status",
    now(),
    "asked before an admin's settlement",
  );
  const said = event.otherRecharge
    ? `status ${answer.status.slice(0, 40)} about another recharge (number ${(answer.connectionNo ?? "").slice(0, 40)}), not applied`
    : `status ${answer.status.slice(0, 40)}`;
  let applied: Awaited<ReturnType<Apply>>;
  try {
    applied = await deps.apply({ reference: order.reference, ...event }, order);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { kind: "unwritten", said, why: why.slice(0, 120) };
  }
  if (applied.order && isFinal(applied.order.status))
    return { kind: "final", order: applied.order };
  // An answer about another recharge, recorded, not applied: it settles nothing, nor stops the
  // admin's word either way (the number compared is an inference: the admin checks with the
  // aggregator, as the collision alert asks, and settles failed or succeeded by hand).
  if (event.otherRecharge) return { kind: "open", said };
  // A final word the order did not take (another transaction id): never overridden by hand.
  if (event.status !== null && isFinal(event.status)) return { kind: "disagrees", said };
  return event.status === null
    ? { kind: "open", said, unsure: "unknown_word" }
    : { kind: "open", said };
}

/**
 * What the aggregator said that stops the admin's outcome: a final word not applied (whatever
 * the outcome), or an answer that may hide a "not found" against a settlement as succeeded.
 */
function stoppedBy(
  asked: Exclude<Asked, { kind: "final" | "unwritten" }>,
  outcome: SettleRequest["outcome"],
):
  | { code: "aggregator_disagrees"; said: string }
  | { code: "aggregator_unsure"; said: string; cause: UnsureCause }
  | null {
  if (asked.kind === "disagrees") return { code: "aggregator_disagrees", said: asked.said };
  if (asked.unsure !== undefined && outcome === "success")
    return { code: "aggregator_unsure", said: asked.said, cause: asked.unsure };
  return null;
}

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
