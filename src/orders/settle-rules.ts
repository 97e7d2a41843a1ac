import { isFinal, type Order, type OrderStatus } from "./model.ts";

/**
 * Who may settle which order when (settle.ts), with no I/O: the states an admin may settle, an
 * order's readiness, and maker-checker's people. Split from settle.ts (its size), unchanged.
 */

/** The states an admin may settle: sent to the aggregator, no final word (never placed: unsent). */
export const SETTLEABLE: OrderStatus[] = ["submitting", "unknown", "queued", "pending"];

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
