import { ORDER_STATUSES, type Order, orderSchema } from "./model.ts";

/** How the Redis order store reads and writes an order's JSON (redis-store.ts). */

const STATUSES: ReadonlySet<unknown> = new Set(ORDER_STATUSES);
const isInt = (v: unknown): boolean => Number.isSafeInteger(v);

/**
 * An order as stored. Only this store writes the JSON, and only after orderSchema.parse (create,
 * update; the scripts add nothing but an integer balanceAfterPaisa), so a read checks what every
 * reader relies on and trusts the rest: zod's full parse of every order read cost about 3 µs and
 * a copy of the order on the webhook's path. Anything else (an order stored by an older version, a hand edit) still gets the
 * full parse, and its error.
 */
export const parseOrder = (json: string): Order => {
  const o = JSON.parse(json) as Record<string, unknown> | null;
  if (
    o !== null &&
    typeof o === "object" &&
    typeof o.reference === "string" &&
    STATUSES.has(o.status) &&
    typeof o.category === "string" &&
    typeof o.details === "object" &&
    o.details !== null &&
    Array.isArray(o.history) &&
    isInt(o.version) &&
    isInt(o.userId) &&
    isInt(o.chatId) &&
    isInt(o.amountPaisa) &&
    isInt(o.createdAt) &&
    isInt(o.updatedAt) &&
    (o.balanceAfterPaisa === undefined || isInt(o.balanceAfterPaisa))
  ) {
    return o as unknown as Order;
  }
  return orderSchema.parse(o);
};

/**
 * A deep copy of JSON data (an order: objects, arrays, strings, numbers, booleans, null), handed
 * to a mutation so that it cannot change an order a caller holds. structuredClone did the same
 * for seven times the CPU (about 7 µs an order against 1), on every compare-and-set.
 */
export function cloneJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    copy[key] = cloneJson((value as Record<string, unknown>)[key]);
  return copy as T;
}

/** The JSON a script writes; without balanceAfterPaisa when the script records it (appends it). */
export function orderJson(order: Order, balanceAccount: string | null): string {
  if (balanceAccount === null) return JSON.stringify(order);
  const { balanceAfterPaisa: _recorded, ...rest } = order;
  return JSON.stringify(rest);
}

/** The order as the script wrote it: with the balance it recorded, if it recorded one. */
export function withBalanceAfter(order: Order, after: unknown): Order {
  return typeof after === "string" && after !== ""
    ? { ...order, balanceAfterPaisa: Number(after) }
    : order;
}
