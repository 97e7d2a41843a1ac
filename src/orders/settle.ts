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
  /** Why, in the admin's words (stored on the order). */
  reason: string;
  /** The admins told of the settlement (the others) and of a later contradiction (all). */
  admins: readonly number[];
}

export type SettleResult =
  | { ok: true; order: Order; aggregator: string }
  | { ok: false; code: "unknown" }
  /** Final already (a second tap, or the aggregator's word came meanwhile). */
  | { ok: false; code: "final"; order: Order }
  | { ok: false; code: "too_young"; order: Order; readyAt: number }
  | { ok: false; code: "not_sent"; order: Order }
  /** The aggregator answered final just now: that answer was applied instead. */
  | { ok: false; code: "aggregator_final"; order: Order };

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

export function createSettle(
  ctx: OrdersContext,
  deps: {
    provider: Pick<OrdersProvider, "statusByReference">;
    apply: Apply;
    settleAfterMs: number;
  },
) {
  const { store, now } = ctx;

  /** Asks the aggregator; applies its answer. Null: it said final; else what it said, in words. */
  async function askAggregator(order: Order): Promise<{ final: Order } | { said: string }> {
    const asked = providerReference(order);
    try {
      const answer = answerAbout(await deps.provider.statusByReference(order.region, asked), asked);
      const event = eventFromStatus(answer, "status", now(), "asked before an admin's settlement");
      const applied = await deps.apply({ reference: order.reference, ...event }, order);
      if (applied.order && isFinal(applied.order.status)) return { final: applied.order };
      return { said: `status ${answer.status.slice(0, 40)}` };
    } catch (err) {
      if (err instanceof ProviderNotFoundError) return { said: "not found" };
      const why = err instanceof Error ? err.message : String(err);
      return { said: `no answer (${why.slice(0, 120)})` };
    }
  }

  return async function settle(req: SettleRequest): Promise<SettleResult> {
    const order = await store.get(req.reference);
    if (!order) return { ok: false, code: "unknown" };
    const allowed = settleable(order, now(), deps.settleAfterMs);
    if (!allowed.ok) return { ...allowed, order };

    const asked = await askAggregator(order);
    if ("final" in asked) {
      ctx.log?.warn(
        { reference: order.reference, status: asked.final.status, admin: req.adminId },
        "settlement not needed: the aggregator answered final, applied",
      );
      return { ok: false, code: "aggregator_final", order: asked.final };
    }
    const reason = req.reason.trim().slice(0, 200);
    const r = await deps.apply({
      reference: order.reference,
      source: "admin",
      status: req.outcome,
      at: now(),
      note: `settled by admin ${req.adminId}: ${reason}`.slice(0, 300),
      ...(req.outcome === "failed" ? { providerMessage: SETTLED_FAILED_MESSAGE } : {}),
      expect: SETTLEABLE,
      settle: {
        by: req.adminId,
        reason,
        aggregator: asked.said,
        admins: [...new Set([...req.admins, req.adminId])].slice(0, 50),
      },
    });
    if (r.outcome !== "changed" || !r.order) {
      // Final meanwhile (the aggregator's word, another admin's tap): nothing of ours was written.
      const current = r.order ?? (await store.get(order.reference));
      return current
        ? { ok: false, code: "final", order: current }
        : { ok: false, code: "unknown" };
    }
    ctx.log?.warn(
      {
        reference: order.reference,
        outcome: req.outcome,
        admin: req.adminId,
        reason,
        aggregator: asked.said,
      },
      "order settled by an admin",
    );
    return { ok: true, order: r.order, aggregator: asked.said };
  };
}

export type Settle = ReturnType<typeof createSettle>;
