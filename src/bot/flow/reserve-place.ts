import {
  InsufficientFundsError,
  type LimitReason,
  NotReservedError,
  type PlaceOptions,
} from "../../orders/index.ts";
import type { Order } from "../../orders/model.ts";
import type { BotDeps, PlaceInput } from "../deps.ts";

/** What the checkout's Confirm ends in: the order, or why it was not placed. */
export type Reserved =
  | Order
  | { limit: LimitReason }
  | { short: { balance: number; total: number } };

/**
 * The limits reserved under the order's key (a replay reserves nothing twice), then the order
 * placed, its hold taken with it (a balance spent meanwhile, in another chat, refuses it). Where
 * the create can check the reservation in its own step (`reservedGuard`: one Redis node), both
 * are sent at once, held for the turn, so they leave in one socket write: Redis runs the
 * reservation first (one connection, in order) and the create only if it said ok; a create that
 * found no ok while the reservation said ok (sent apart after all) is placed again, after it.
 */
export async function reserveAndPlace(deps: BotDeps, input: PlaceInput): Promise<Reserved> {
  const { userId, idempotencyKey: key, amountPaisa } = input;
  const place = async (opts?: PlaceOptions): Promise<Reserved> => {
    try {
      return await deps.orders.place(input, opts);
    } catch (err) {
      if (!(err instanceof InsufficientFundsError)) throw err;
      return { short: { balance: err.availablePaisa, total: err.totalPaisa } };
    }
  };
  const guard = deps.limits.reservedGuard?.(userId, key);
  if (!guard) {
    const verdict = await deps.limits.reserve(userId, amountPaisa, key);
    return verdict.ok ? place() : { limit: verdict.reason };
  }
  deps.holdWrites?.();
  const [verdict, placed] = await Promise.allSettled([
    deps.limits.reserve(userId, amountPaisa, key),
    place({ guard }),
  ]);
  if (verdict.status === "rejected") throw verdict.reason;
  if (!verdict.value.ok) {
    // The create ran only on an ok: a refused reservation left it unwritten (NotReservedError).
    if (placed.status === "fulfilled" || !(placed.reason instanceof NotReservedError))
      throw new Error(`order key ${key}: the create did not wait for the limits' refusal`);
    return { limit: verdict.value.reason };
  }
  if (placed.status === "fulfilled") return placed.value;
  if (placed.reason instanceof NotReservedError) return place({ guard });
  throw placed.reason;
}
