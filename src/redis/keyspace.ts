/**
 * Every Redis key the product writes, and the fixed expiries, in one place. Every key starts with
 * the deployment's prefix (REDIS_PREFIX, e.g. "ra:"), so several deployments can share a Redis and
 * a test can delete its own keys by pattern.
 *
 * Hash tags, for Redis Cluster: Cluster puts a key in the slot of the first `{...}` in its name,
 * and a script or MULTI may touch only keys of one slot. Keys that one script or transaction
 * touches therefore share a tag, and every script's keys are in one slot (the Cluster e2e test,
 * test/e2e/redis-cluster.test.ts, runs the order flow on three masters):
 *  - `{money}`: everything the money path writes in one atomic step. The order create script
 *    (the reference counter, idempotency key, order, the user's order index, the open-orders set,
 *    the alias, the hold in the books), the order update script (order, open set, transaction-id hash, the notification
 *    outbox, the post/void and bookings), the ledger's own scripts, the top-up scripts (top-up,
 *    schedule, the credit), the books' crossing scripts (a state or an hourly alert's window
 *    note, and the outbox) and the notifier's transactions (outbox, attempts, dead letters). One slot, so one master carries
 *    all of it: sharding it means per-slot open sets, outboxes and sub-ledgers (README "Redis
 *    Cluster").
 *  - `{user:U}`: one user's spend limits (the reserve script); `{pace}`: the send pacer's buckets;
 *    `{idle}`: the idle deadlines; `{accounts}`: the phone registry (the register script);
 *    `{chat:C}`: one chat's turn across instances (queue, waiters, lease: redis/chat-turns.ts).
 *  - single keys, spread over the cluster by their own names: sessions, conversation state, the
 *    flood counters, update claims, sent markers (with the sending locks), leases, the reference
 *    counter as it was (only read, to seed the one in `{money}`).
 *
 * Expiries given by callers (session TTL from config, lease and lock TTLs, the sent marker in
 * notify/queue.ts, the done mark in bot/dedupe.ts) are not repeated here.
 */
export function keyspace(prefix: string) {
  const user = (userId: number) => `${prefix}{user:${userId}}`;
  /** The money path's one slot (see above). */
  const money = `${prefix}{money}`;
  const notify = `${money}:notify`;
  const pace = `${prefix}{pace}`;
  const ledger = `${money}:ledger`;
  const accounts = `${prefix}{accounts}`;
  const topUpName = `${money}:topup:`;
  return {
    prefix,

    // --- Orders (orders/redis-store.ts) ---
    /**
     * String: the reference counter (orders/redis-store.ts), in the money slot so the create
     * script numbers the order it writes. Seeded on first use from `referenceSeqBefore`.
     */
    referenceSeq: `${money}:orders:seq`,
    /**
     * String: the reference counter as it was, outside any slot (read once per process, to seed
     * `referenceSeq` when that is not there yet; no longer written).
     */
    referenceSeqBefore: `${prefix}orders:seq`,
    /** Hash {v: version, j: order JSON}. */
    order: (reference: string) => `${money}:order:${reference}`,
    /** String: idempotency key -> reference. */
    idempotency: (key: string) => `${money}:idem:${key}`,
    /** String: execute (listing) reference -> our reference. */
    alias: (executeReference: string) => `${money}:alias:${executeReference}`,
    /** Hash: provider transaction id -> reference. Global. */
    byTransaction: `${money}:orders:by-tx`,
    /** Sorted set per user: reference scored by createdAt. */
    byUser: (userId: number) => `${money}:user:${userId}:orders`,
    /** Sorted set of non-final orders scored by createdAt. Global. */
    open: `${money}:orders:open`,
    /**
     * Sorted set of orders an admin settled whose aggregator's final word is awaited, scored by
     * when the reconciler asks next (orders/settled-watch.ts). Global.
     */
    settledWatch: `${money}:orders:settled-watch`,
    /**
     * String per order, with a TTL: until when (epoch ms) a webhook's claim against the order's
     * final outcome costs no more status queries (webhook/apply.ts claimOnFinal). Only written on
     * that rare path, never on the normal order path.
     */
    claimCheck: (reference: string) => `${prefix}orders:claim-check:${reference}`,
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
     * String "below" | "above" | "above:<ms>" (the re-arm's reading time): the books' alert
     * crossings (low float, drift), in the outbox's slot so a crossing and its alerts are one
     * script (src/books/crossing.ts). Under `note:<name>`, a small JSON record (the books check's
     * last outcome; an hourly alert's window, counted and replaced with its alerts by script).
     * Under `owed:<name>`, a sorted set: the orders owed a count in that window (reference, scored
     * by when the order's update script marked it; removed by the script that counts or tells it;
     * read and set aside by the repair, src/books/owed-marks.ts, with `owed-since:<name>`).
     */
    crossing: (name: string) => `${notify}:crossing:${name}`,
    /** Hash: stream entry id -> delivery attempts. */
    attempts: `${notify}:attempts`,
    /** List of notifications given up on (JSON), newest first, capped. */
    dead: `${notify}:dead`,
    /**
     * Per notification key (order+status), with a TTL: "1" once sent; "L:<token>" while one
     * consumer holds the short sending lock. (Before: the lock was `notify:lock:<key>`.)
     */
    sent: (key: string) => `${prefix}notify:sent:${key}`,
    /**
     * String "1" per chat that blocked the bot or cannot be reached (a 403 on a push or an edit):
     * its notifications are dropped. A key a chat, so that the bot's early read of every update
     * (bot/create-bot.ts `earlyReadKeys`) sees the mark at no command of its own and clears it
     * when the chat writes again. (Before: one set, `chats:inactive`, no longer read.)
     */
    inactiveChat: (chatId: number) => `${prefix}chats:inactive:${chatId}`,
    /**
     * Sorted set: the pacer's GCRA buckets, member "g" the bot's and one per chat id, scored by
     * the bucket's theoretical arrival time. (Before: strings `{pace}:global` and
     * `{pace}:chat:<id>`, which expire by themselves.)
     */
    paceBuckets: `${pace}:buckets`,

    // --- The merchant's books (ledger/redis-store.ts, ledger/lua.ts). All five global. ---
    /** Hash: "<account>|dp|cp|dq|cq" -> paisa (debits/credits posted/pending). */
    ledgerBalances: `${ledger}:balances`,
    /** Hash: transfer id -> "<journal stream id> <fingerprint>" (idempotency). */
    ledgerTransfers: `${ledger}:transfers`,
    /** Hash: hold id -> "pending" | "posted <stream id>" | "voided <stream id>". */
    ledgerPending: `${ledger}:pending`,
    /** Stream: the append-only journal, one entry per transfer, ids "<booking ms>-<n>". */
    ledgerJournal: `${ledger}:journal`,
    /**
     * Sorted set (score 0, by bytes): the books' read index, each account's entries with its
     * balances after them and each reference's entries (ledger/account-index.ts).
     */
    ledgerIndex: `${ledger}:index`,
    /** String: when the read index's backfill finished (ledger/index-backfill.ts); absent: run it. */
    ledgerIndexComplete: `${ledger}:index:complete`,

    // --- The catalogue (provider/catalog-sync.ts) ---
    /** String: the provider's last operator listings (JSON), the fallback when the lookups fail. */
    catalogListing: `${prefix}catalog:listing`,
    // --- Top-ups (payments/redis-store.ts). The update script also holds the {ledger} keys. ---
    /** Hash {v: version, j: top-up JSON}, by the gateway's payment id. */
    topUp: (gateway: string, paymentId: string) => `${topUpName}${gateway}:${paymentId}`,
    /**
     * What `topUp`'s names start with, before "<gateway>:<paymentId>" (a member of
     * `topUpsByUser`): the update script reads the user's other top-ups of the day by it, to
     * check a credit's daily cap in the step that books it (same slot; payments/redis-scripts.ts).
     */
    topUpNamePrefix: topUpName,
    /** Sorted set per user: "<gateway>:<paymentId>" scored by createdAt. */
    topUpsByUser: (userId: number) => `${money}:user:${userId}:topups`,
    /** Sorted set of top-ups the reconciler must look at, scored by when. Global. */
    topUpsDue: `${money}:topups:due`,
    /** Sorted set of held top-ups (an admin decides), "<gateway>:<paymentId>" by when held. */
    topUpsHeld: `${money}:topups:held`,
    /** Sorted set of partial refunds waiting for an admin's figure, by when reported. */
    topUpsPartial: `${money}:topups:partial`,
    // --- Who is who beside the books (accounts/store.ts). Global, one tag: the register script
    // touches both hashes. ---
    /** Hash: phone (international digits) -> Telegram user id. */
    accountPhones: `${accounts}:phones`,
    /** Hash: Telegram user id -> phone. */
    accountUsers: `${accounts}:users`,
    /** Hash: ledger transfer id -> receipt JSON (cash-ins, agent credits, reversals). */
    accountReceipts: `${accounts}:receipts`,
    /** Hash: "<transfer id>:<side>" -> 1 once that side was told of the transfer (accounts/store.ts). */
    accountNotices: `${accounts}:notices`,
    /** Hash: Telegram user id -> the language their pushes go in (register, /language). */
    accountLocales: `${accounts}:locales`,

    // --- Bot and its spend limits (orders/limits.ts, bot/dedupe.ts, bot/create-bot.ts) ---
    /**
     * String: what the access check needs of a user, "registered" then "blocked", each "1", "0" or
     * "?" (unknown: read the registry's hashes), then the writer's 8-character nonce (a fill is a
     * compare-and-set). Written by whoever changes the hashes (accounts/access-flags.ts); read with
     * the bot's early MGET.
     */
    accessFlags: (userId: number) => `${user(userId)}:access`,
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
    /**
     * One chat's turn across instances (redis/chat-turns.ts), one slot per chat (`{chat:C}`): the
     * queue (sorted set of waiting update ids), their waiters' liveness (hash) and the turn: the
     * lease while held, the chat's epoch once freed (what a read of the chat's state made before
     * its turn compares). Named `:hold` since it took over the epoch (`:turn` and `:epoch` before),
     * so an instance of the old code reads none of it as a turn held.
     */
    chatTurn: (chat: string) => ({
      queue: `${prefix}{chat:${chat}}:turns`,
      alive: `${prefix}{chat:${chat}}:alive`,
      turn: `${prefix}{chat:${chat}}:hold`,
    }),
    /** grammY session key prefix (the chat id follows). */
    sessionPrefix: `${prefix}session:`,
    /** Conversations v2 state key prefix (the chat id follows). */
    conversationPrefix: `${prefix}conversation:`,
    /** The flood limiter's counter key prefix (the plugin appends the user id). */
    floodPrefix: `${prefix}flood`,
    /** Sorted set: chat id -> when its waiting question times out (ms); bot/idle.ts. */
    idleDue: `${prefix}{idle}:due`,
    /** Hash: chat id -> what the idle notice needs, as armed before idleInfoOf (still read). */
    idleInfo: `${prefix}{idle}:info`,
    /** String per chat: what the idle notice says (JSON: locale, flow), written by a flow's first arm, with a TTL. */
    idleInfoOf: (chatId: number) => `${prefix}{idle}:info:${chatId}`,
    /** Hash: chat id -> the time of the deadline whose notice went out, naming its arm (until the flow sees it). */
    idleNoticed: `${prefix}{idle}:noticed`,

    // --- The back office (dashboard/): single keys, no script touches two ---
    /** String (JSON: user id, end), PX the link's life: a login link by its token's SHA-256 (one per person); `spent:<hash>` the user id of a spent one, PX the rest of its life. */
    dashboardLink: (tokenHash: string) => `${prefix}dash:link:${tokenHash}`,
    /** String (JSON: user id, login, last use), PX the absolute timeout: a session by its id's SHA-256. */
    dashboardSession: (idHash: string) => `${prefix}dash:session:${idHash}`,
    /**
     * One person's keys. `sessions`: a Set of their session-id hashes (revoke all), PX the absolute
     * timeout. `link`: a String, their newest login link's SHA-256, the only link that logs in
     * (dashboard/links.ts), PX the link's life.
     */
    dashboardUser: (id: number, what: "sessions" | "link") => `${prefix}dash:user:${id}:${what}`,
    /** List of audit entries (JSON), newest first, never trimmed: money and access actions (dashboard/audit.ts). */
    dashboardAudit: `${prefix}dash:audit`,
    /** List of audit entries (JSON), newest first, capped: exports, which only read (dashboard/audit.ts). */
    dashboardAuditViews: `${prefix}dash:audit:views`,

    // --- Customers and agents in the back office (issue 29, h-people): in the accounts' tag ---
    /** Hash: Telegram user id -> block JSON (reason, by, at); accounts/blocked.ts. */
    accountBlocked: `${accounts}:blocked`,
    /**
     * Hash: Telegram user id -> a WhatsApp-born account, linked by versions before s21 on a
     * matching number alone. No longer read or written (a link needs a code now: `accountLinks`);
     * named here so that an operator can find and delete it.
     */
    accountPersons: `${accounts}:persons`,
    /**
     * Hash: channel id (a Telegram user id, or a WhatsApp chat id) -> the person it acts as, linked
     * with a one-time code (accounts/links.ts). Replaces `accountPersons`, whose links were made on
     * a matching number alone and are no longer read.
     */
    accountLinks: `${accounts}:links`,
    /** Hash, PX the code's life: a link offered to a channel (person, phone, code's hash, tries). */
    accountLinkCode: (channelId: number) => `${accounts}:linkcode:${channelId}`,
    /** String counter, PX one hour: codes sent for a channel (a bound on guessing by asking again). */
    accountLinkSends: (channelId: number) => `${accounts}:linksends:${channelId}`,
    /** Hash: Telegram user id -> registration JSON (name, username, first and latest share). */
    accountProfiles: `${accounts}:profiles`,
    /** Sorted set: Telegram user id by its profile's firstAt (the back office's list of customers). */
    accountJoined: `${accounts}:joined`,
    /**
     * Hash: WhatsApp-born account id -> Meta's business-scoped user id (`contacts[].user_id`) it
     * belongs to, the first one seen (trust on first use; accounts/store.ts `adoptWaUser`). Read
     * with the arrival: a message from the number with another user id is not this account's.
     */
    accountWaUsers: `${accounts}:wausers`,
    /** Hash: account id -> JSON {phone, waUserId, at}: a sender held until /waid decides. */
    accountWaHolds: `${accounts}:waholds`,
    /** List of JSON, newest first, never trimmed: the admins' /waid decisions (who, when, which). */
    accountWaDecided: `${accounts}:wadecided`,
    /**
     * Hash: account id -> the number /waid released from it (wa-identity.ts `waPushBlocked`);
     * `${this}:n`, a counter: the fresh WhatsApp accounts opened on such numbers (chat-ids.ts).
     */
    accountWaReleased: `${accounts}:wareleased`,
    /** Hash: user id -> the agent whose shop QR code they came through (first one kept). */
    accountShops: `${accounts}:shops`,
    /** String counter, PX its window: hits on the login entry points in one fixed window (dashboard/rate-limit.ts). */
    dashboardRate: (bucket: string) => `${prefix}dash:rate:${bucket}`,
    /** String (JSON: who, when), PX 30 days: an alert acknowledged in the back office, by its id. */
    dashboardAck: (alertId: string) => `${prefix}dash:ack:${alertId}`,

    /** List (JSON), EX 180 days: what the notifier sent for an order (notify/sent-log.ts). */
    orderSent: (reference: string) => `${prefix}sent:${reference}`,

    // --- WhatsApp (src/whatsapp/): the inbound queue in `{wa}`, each chat's renderings in `{wachat:C}` ---
    /** String, EX 7 days: a customer message's wamid, seen (the webhook's once-only mark). */
    waSeen: (wamid: string) => `${prefix}{wa}:seen:${wamid}`,
    /** String: the counter that numbers inbound messages as updates (their handling order). */
    waUpdateSeq: `${prefix}{wa}:seq`,
    /** Stream: the inbound messages, handled by the consumer group `whatsapp`. */
    waInbound: `${prefix}{wa}:inbound`,
    /** Sorted set per chat: update ids of its messages not yet handled (in order per customer). */
    waPending: (chatId: number) => `${prefix}{wa}:pending:${chatId}`,
    /**
     * Hash per chat, a listpack: message-id counter, last inbound, the records of the bot's
     * messages, its sent wamids and their statuses (whatsapp/chat-scripts.ts has the fields).
     */
    waChat: (chatId: number) => `${prefix}{wachat:${chatId}}`,
    /**
     * String, EX 35 days: a sent wamid -> "chat:message id". Written before issue 31 only (now a
     * field of waChat); read for a tap the chat's hash does not know, until the last expire.
     */
    waWamid: (wamid: string) => `${prefix}wa:wamid:${wamid}`,
    /** The WhatsApp number's send pacer: its own buckets, apart from Telegram's (notify/pacer.ts). */
    waPacePrefix: `${prefix}wa:`,
    /** Hash, EX 35 days: a sent wamid's delivery statuses. Before issue 31 only: now in waChat. */
    waStatus: (wamid: string) => `${prefix}wa:status:${wamid}`,

    // --- Order search (orders/search.ts), written by the order create script: {money} ---
    /** Sorted set, every score 0: three members per order (by time, by number, by customer). */
    orderSearch: `${money}:orders:search`,

    // --- Reminders (reminders/store.ts): `{reminders}`, no script touches two keys ---
    /** Sorted set: customer (user id) -> when the reminder worker looks at them next (ms). */
    remindersDue: `${prefix}{reminders}:due`,
    /** Hash per customer: records, payment times, sent marks, what is off, the last message's day. */
    reminders: (userId: number) => `${prefix}{reminders}:u:${userId}`,
    // --- Complaints (complaints/redis-store.ts): {money}, so a resolution books its refund in the same script ---
    /** String: the complaint number counter. */
    complaintSeq: `${money}:complaints:seq`,
    /** Hash {v: version, j: complaint JSON}. */
    complaint: (ref: string) => `${money}:complaint:${ref}`,
    /** Hash: order reference -> the number of its one open complaint (the one-per-order rule). */
    complaintOpenByOrder: `${money}:complaints:open-by-order`,
    /** Sorted set: open complaint numbers scored by their due time. */
    complaintsOpen: `${money}:complaints:open`,
    /** Sorted set per order: every complaint number of the order, scored by createdAt. */
    complaintsOfOrder: (orderRef: string) => `${money}:complaints:order:${orderRef}`,
    /** Sorted set per user: their complaint numbers, scored by createdAt. */
    complaintsOfUser: (userId: number) => `${money}:complaints:user:${userId}`,
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

/**
 * Hash in `{money}`: order reference -> the complaint whose refund was booked on it, set and
 * checked in the refund's own script (complaints/redis-store.ts), so an order is refunded once.
 * Outside `keyspace`, which is at its length bound.
 */
export const complaintRefundedOrdersKey = (prefix: string): string =>
  `${prefix}{money}:complaints:refunded`;

/**
 * String in `{money}`: the complaint number up to which every closed complaint's refund has its
 * mark in `complaintRefundedOrdersKey` (complaints/refund-marks.ts, the backfill for refunds booked
 * before the mark existed).
 */
export const complaintRefundMarksCursorKey = (prefix: string): string =>
  `${prefix}{money}:complaints:refunded:cursor`;

/**
 * Late `failed` WhatsApp resends (whatsapp/late-resend-store.ts), one slot `{waresend}` (apart from
 * keyspace(): its function is at its length bound): a sorted set (wamid -> due, or a taker's lease
 * end), a hash (wamid -> the entry, JSON), and per wamid done a string, EX 8 days.
 */
export function waResendKeys(prefix: string) {
  return {
    due: `${prefix}{waresend}:due`,
    entries: `${prefix}{waresend}:entries`,
    done: (wamid: string) => `${prefix}{waresend}:done:${wamid}`,
    /** A resend's new wamid: its chain's first due time and counts (carried if it fails late too). */
    carry: (wamid: string) => `${prefix}{waresend}:carry:${wamid}`,
  };
}

/**
 * A moved idle deadline's record (bot/idle.ts `postpone`), beside `keyspace` (whose function is
 * full), in the `{idle}` slot: a String per chat, `<deadline>:<arm>`, the arm a deadline moved
 * from a held WhatsApp question still names, with a TTL.
 */
export const idleMovedOf = (prefix: string, chatId: number) => `${prefix}{idle}:moved:${chatId}`;

/**
 * Hash, beside `keyspace` (whose function is full), in the accounts' tag: wamid -> a WhatsApp
 * customer's number change as Meta's signed notice told it (old and new number, when), written
 * once per notice (accounts/number-changes.ts). Never trimmed: numbers change rarely, and support
 * needs the record.
 */
export const accountNumberChangesKey = (prefix: string) => `${prefix}{accounts}:numchanges`;

/**
 * Answers owed to WhatsApp chats while Meta's rate limit holds the sends (whatsapp/owed-replies.ts),
 * one slot `{waowed}`: a sorted set (chat id -> due, or a taker's lease end) and per chat a List of
 * its owed answers (JSON), oldest first; the List goes with its last answer.
 */
export function waOwedKeys(prefix: string) {
  return {
    due: `${prefix}{waowed}:due`,
    chat: (chatId: number) => `${prefix}{waowed}:chat:${chatId}`,
  };
}

/**
 * The back office's float movements (dashboard/float-moves.ts), beside `keyspace` (whose function
 * is full): `move:<id>` a String (JSON: the proposal, never changed), `decision:<id>` a String
 * (JSON: approved or rejected, the proposal's digest, by, at) set once (NX), both PX 400 days;
 * `list` a List of proposal ids, newest first, each pushed once when created, never trimmed;
 * `unbooked` a Set of approved ids not yet booked (removed once booked).
 */
export const dashboardFloatKey = (prefix: string, what: string) => `${prefix}dash:float:${what}`;

/**
 * Set: the marks of the audit lines written once (dashboard/audit.ts recordOnce: a float
 * movement's step, `float:<id>:<step>`), never trimmed nor expiring, as the audit list it marks:
 * at most two members a proposal (its own, its decision's), asked only of the proposals the books
 * page lists (the newest 200 and the unbooked). Kept with the never-trimmed audit list
 * (`dashboardAudit`) in its slot, so a line and its mark are one script on a Cluster too: the name
 * carries the list's own name as its hash tag (the list has none), or the list's tag when the
 * prefix gives it one. A prefix with a brace that makes no tag gets no shared slot (one Redis only).
 */
export function dashboardAuditMarks(prefix: string): string {
  const list = keyspace(prefix).dashboardAudit;
  if (hashTagOf(list) !== undefined || /[{}]/.test(prefix)) return `${list}:marks`;
  return `${prefix}{${list}}:marks`;
}

/** A key's Cluster hash tag: what is between its first `{` and the first `}` after it, if not empty. */
function hashTagOf(key: string): string | undefined {
  const open = key.indexOf("{");
  if (open < 0) return undefined;
  const close = key.indexOf("}", open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : undefined;
}
