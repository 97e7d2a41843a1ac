/**
 * Every Redis key the product writes, and the fixed expiries, in one place. Every key starts with
 * the deployment's prefix (REDIS_PREFIX, e.g. "ra:"), so several deployments can share a Redis and
 * a test can delete its own keys by pattern.
 *
 * Hash tags, for Redis Cluster: Cluster puts a key in the slot of the first `{...}` in its name,
 * and a script or MULTI may touch only keys of one slot. Keys that one script or transaction
 * touches therefore share a tag: `{user:U}` (the spend limits, the user's order index), `{pace}`
 * (the send pacer's buckets), `{notify}` (the outbox stream, its attempt counts and dead letters).
 * A prefix with braces of its own would put its tag first and every key in one slot.
 *
 * What runs in one slot today, and what does not (issue 18 needs this list):
 *  - one slot: the spend-limit reserve (bot/limits.ts), the pacer's take (notify/pacer.ts), the
 *    reference counter, the reconciler lease, update-claim renewal, the sending lock, the flood
 *    counter (one key each), the notifier's ack and dead-letter transactions ({notify}).
 *  - NOT one slot, so they cannot run on Cluster as they are:
 *    - order create (orders/redis-store.ts): idempotency key, order, the user's index, the alias
 *      (each tagged by its own id) and the global open-orders set;
 *    - order update (orders/redis-store.ts): the order plus three global keys, the open-orders set,
 *      the transaction-id hash and the notification outbox stream;
 *    - the order store's loadMany pipeline reads orders of many slots (a Cluster client splits it).
 *    - top-up update (topup/redis-store.ts): the top-up, the global schedule and the four {ledger}
 *      keys (the credit is booked in the same step as the status); top-up create: the top-up,
 *      the user's index and the schedule.
 *  The global keys (open orders, by-tx, outbox, inactive chats, reference counter) each live in
 *  one slot; sharding them is the work that running the order scripts on Cluster would take.
 *  - the ledger (ledger/redis-store.ts): its four keys are global and share the tag {ledger}, so
 *    its own scripts run in one slot. A customer's account is a field of the global balances hash,
 *    not a key beside the customer's orders: most transfers touch a global merchant account anyway
 *    (merchant:sales, merchant:funding), so no per-customer tag could put a transfer in one slot.
 *    The order scripts embed the hold (create) and its post/void (update), so they also touch
 *    the four {ledger} keys: cross-slot, like the rest of those two scripts.
 *
 * Expiries given by callers (session TTL from config, lease and lock TTLs, the sent marker in
 * notify/queue.ts, the done mark in bot/dedupe.ts) are not repeated here.
 */
export function keyspace(prefix: string) {
  const user = (userId: number) => `${prefix}{user:${userId}}`;
  const notify = `${prefix}{notify}`;
  const pace = `${prefix}{pace}`;
  const ledger = `${prefix}{ledger}`;
  const accounts = `${prefix}{accounts}`;
  return {
    prefix,

    // --- Orders (orders/redis-store.ts) ---
    /** String counter behind nextReference. */
    referenceSeq: `${prefix}orders:seq`,
    /** Hash {v: version, j: order JSON}. */
    order: (reference: string) => `${prefix}{order:${reference}}`,
    /** String: idempotency key -> reference. */
    idempotency: (key: string) => `${prefix}{idem:${key}}`,
    /** String: execute (listing) reference -> our reference. */
    alias: (executeReference: string) => `${prefix}{alias:${executeReference}}`,
    /** Hash: provider transaction id -> reference. Global. */
    byTransaction: `${prefix}orders:by-tx`,
    /** Sorted set per user: reference scored by createdAt. */
    byUser: (userId: number) => `${user(userId)}:orders`,
    /** Sorted set of non-final orders scored by createdAt. Global. */
    open: `${prefix}orders:open`,
    /** List of unmatched webhook/status events (JSON), newest first, capped. */
    unmatched: `${prefix}orders:unmatched`,
    /** Lease key for a named singleton job (e.g. "reconciler"). */
    lease: (name: string) => `${prefix}lease:${name}`,

    // --- Notifications (notify/redis-queue.ts, notify/pacer.ts) ---
    /**
     * Stream: the notification outbox, written by the order store in the same script as the
     * order's change, read by the notifier's consumer group. Field "n" holds the notification JSON.
     */
    outbox: `${notify}:stream`,
    /**
     * String "below" | "above": the books' alert crossings (low float, drift), in the outbox's
     * slot so a crossing and its alerts are one script (src/books/crossing.ts).
     */
    crossing: (name: string) => `${notify}:crossing:${name}`,
    /** Hash: stream entry id -> delivery attempts. */
    attempts: `${notify}:attempts`,
    /** List of notifications given up on (JSON), newest first, capped. */
    dead: `${notify}:dead`,
    /** "Sent" marker per notification key (order+status), with a TTL. */
    sent: (key: string) => `${prefix}notify:sent:${key}`,
    /** Short lock while one consumer sends a notification. */
    sending: (key: string) => `${prefix}notify:lock:${key}`,
    /** Set of chat ids that blocked the bot. */
    inactiveChats: `${prefix}chats:inactive`,
    /** The pacer's GCRA buckets: the bot's and one per chat. */
    paceGlobal: `${pace}:global`,
    paceChat: (chatId: number) => `${pace}:chat:${chatId}`,

    // --- The merchant's books (ledger/redis-store.ts, ledger/lua.ts). All four global. ---
    /** Hash: "<account>|dp|cp|dq|cq" -> paisa (debits/credits posted/pending). */
    ledgerBalances: `${ledger}:balances`,
    /** Hash: transfer id -> "<journal stream id> <fingerprint>" (idempotency). */
    ledgerTransfers: `${ledger}:transfers`,
    /** Hash: hold id -> "pending" | "posted <stream id>" | "voided <stream id>". */
    ledgerPending: `${ledger}:pending`,
    /** Stream: the append-only journal, one entry per transfer, ids "<booking ms>-<n>". */
    ledgerJournal: `${ledger}:journal`,

    // --- The catalogue (provider/catalog-sync.ts) ---
    /** String: the provider's last operator listings (JSON), the fallback when the lookups fail. */
    catalogListing: `${prefix}catalog:listing`,
    // --- Top-ups (topup/redis-store.ts). The update script also holds the four {ledger} keys. ---
    /** Hash {v: version, j: top-up JSON}, by the gateway's payment id. */
    topUp: (gateway: string, paymentId: string) => `${prefix}{topup:${gateway}:${paymentId}}`,
    /** Sorted set per user: "<gateway>:<paymentId>" scored by createdAt. */
    topUpsByUser: (userId: number) => `${user(userId)}:topups`,
    /** Sorted set of top-ups the reconciler must look at, scored by when. Global. */
    topUpsDue: `${prefix}topups:due`,
    // --- Who is who beside the books (accounts/store.ts). Global, one tag: the register script
    // touches both hashes. ---
    /** Hash: phone (international digits) -> Telegram user id. */
    accountPhones: `${accounts}:phones`,
    /** Hash: Telegram user id -> phone. */
    accountUsers: `${accounts}:users`,
    /** Hash: ledger transfer id -> receipt JSON (cash-ins, agent credits, reversals). */
    accountReceipts: `${accounts}:receipts`,

    // --- Bot (bot/limits.ts, bot/dedupe.ts, bot/create-bot.ts) ---
    /** Paisa a user reserved on one Nepal day (YYYY-MM-DD). */
    spendDay: (userId: number, day: string) => `${user(userId)}:spend:${day}`,
    /** Orders a user reserved in one clock hour (hours since the epoch). */
    countHour: (userId: number, hour: number) => `${user(userId)}:count:${hour}`,
    /** The verdict of one reserve, by the order's idempotency key, so a replay gets it again. */
    reserved: (userId: number, orderKey: string) => `${user(userId)}:seen:${orderKey}`,
    /**
     * Hash {v: version, j: JSON list}: the user's saved numbers and billers, every category
     * (saved/store.ts; written by compare-and-set of v). Durable: no TTL.
     */
    saved: (userId: number) => `${user(userId)}:saved`,
    /** Lease, then done mark, of one Telegram update id. */
    update: (updateId: number) => `${prefix}update:${updateId}`,
    /** grammY session key prefix (the chat id follows). */
    sessionPrefix: `${prefix}session:`,
    /** Conversations v2 state key prefix (the chat id follows). */
    conversationPrefix: `${prefix}conversation:`,
    /** The flood limiter's counter key prefix (the plugin appends the user id). */
    floodPrefix: `${prefix}flood`,
    /** Sorted set: chat id -> when its waiting question times out (ms); bot/idle.ts. */
    idleDue: `${prefix}{idle}:due`,
    /** Hash: chat id -> what the idle notice needs (JSON: locale, flow, the arm's token). */
    idleInfo: `${prefix}{idle}:info`,
    /** Hash: chat id -> the token of the deadline whose notice went out (until the flow sees it). */
    idleNoticed: `${prefix}{idle}:noticed`,
  };
}
export type Keyspace = ReturnType<typeof keyspace>;

/** The consumer group of the notifier on the outbox stream. */
export const NOTIFIER_GROUP = "notifier";

/** Fixed expiries of keys no caller gives a TTL for. */
export const TTL = {
  /** A day's spend: the day and a margin for clocks. */
  spendDaySeconds: 2 * 86_400,
  /** An hour's count: the hour and a margin. */
  countHourSeconds: 2 * 3_600,
  /** A reserve's verdict: as long as the confirm that made it could be replayed. */
  reservedSeconds: 2 * 86_400,
} as const;
