/**
 * Every Redis key of the money path, in one place, under one prefix (REDIS_PREFIX, e.g. "ra:").
 * The order store and the notification queue share the outbox stream: the store appends to it in
 * the same Lua script that changes an order, the notifier's consumer group reads it.
 */
export function moneyPathKeys(prefix: string) {
  return {
    /** String counter behind nextReference. */
    referenceSeq: `${prefix}orders:seq`,
    /** Hash {v: version, j: order JSON}. */
    order: (reference: string) => `${prefix}order:${reference}`,
    /** String: idempotency key -> reference. */
    idempotency: (key: string) => `${prefix}order:idem:${key}`,
    /** String: execute (listing) reference -> our reference. */
    alias: (executeReference: string) => `${prefix}order:alias:${executeReference}`,
    /** Hash: provider transaction id -> reference. */
    byTransaction: `${prefix}orders:by-tx`,
    /** Sorted set per user: reference scored by createdAt. */
    byUser: (userId: number) => `${prefix}orders:user:${userId}`,
    /** Sorted set of non-final orders scored by createdAt. */
    open: `${prefix}orders:open`,
    /** List of unmatched webhook/status events (JSON), newest first, capped. */
    unmatched: `${prefix}orders:unmatched`,
    /** Stream: the notification outbox. Field "n" holds the notification JSON. */
    outbox: `${prefix}notify:stream`,
    /** "Sent" marker per notification key (order+status), with a TTL. */
    sent: (key: string) => `${prefix}notify:sent:${key}`,
    /** Short lock while one consumer sends a notification. */
    sending: (key: string) => `${prefix}notify:lock:${key}`,
    /** Hash: stream entry id -> delivery attempts. */
    attempts: `${prefix}notify:attempts`,
    /** List of notifications given up on (JSON), newest first, capped. */
    dead: `${prefix}notify:dead`,
    /** Set of chat ids that blocked the bot. */
    inactiveChats: `${prefix}chats:inactive`,
    /** Lease key for a named singleton job (e.g. "reconciler"). */
    lease: (name: string) => `${prefix}lease:${name}`,
  };
}
export type MoneyPathKeys = ReturnType<typeof moneyPathKeys>;

/** The consumer group of the notifier on the outbox stream. */
export const NOTIFIER_GROUP = "notifier";
