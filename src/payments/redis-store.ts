import { ledgerKeys, parseLedgerReply, transferArgv } from "../ledger/lua.ts";
import { type TransferInput, transferInputSchema } from "../ledger/model.ts";
import type { Logger } from "../logger.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { isOpenBefore, type TopUp, topUpSchema } from "./model.ts";
import { createScript, updateScript } from "./redis-scripts.ts";
import { redisUnreadable, unreadableTopUpsKey } from "./redis-unreadable.ts";
import {
  type CreditCap,
  type TopUpStore,
  UnreadableTopUpError,
  type UpdateOutcome,
  type UserTopUps,
} from "./store.ts";

export { unreadableTopUpsKey };

/**
 * Top-ups in Redis: a hash {v, j} per top-up, the user's index and the global schedule. The update
 * is one Lua script that checks the version and a credit's caps (beside what the user's other
 * top-ups credited, read in the script), books the transfer with the ledger's own Lua (which
 * checks everything before it writes), and only then writes the top-up and its schedule: the cap
 * check, the credit and "completed" are one step, and a kill -9 at any point leaves both or neither.
 * Cross-slot on Redis Cluster, like the order scripts (see src/redis/keyspace.ts).
 */

type StoreOptions = { redis: RedisClient; prefix: string; now?: () => number; logger?: Logger };

/** A top-up's member in the user's index and the schedules. */
const member = (gateway: string, paymentId: string) => `${gateway}:${paymentId}`;

/**
 * The compare-and-set of a top-up with its ledger transfer and schedule, in one script (see
 * redis-scripts.ts): refused on a version race, a credit above its caps, or when the books refuse
 * the transfer.
 */
async function update(
  opts: StoreOptions,
  expectedVersion: number,
  next: TopUp,
  transfer: TransferInput | undefined,
  dueAt: number | null,
  cap: CreditCap | undefined,
): Promise<UpdateOutcome> {
  const { redis } = opts;
  const k = keyspace(opts.prefix);
  const now = opts.now ?? Date.now;
  const written = topUpSchema.parse({ ...next, version: expectedVersion + 1 });
  const t = transfer ? transferInputSchema.parse(transfer) : undefined;
  const self = member(written.gateway, written.paymentId);
  const byUser = k.topUpsByUser(written.userId);
  // A credit's cap check reads the user's other top-ups of the window: declared to the script
  // (KEYS), as read here; one created since is refused {4} and they are read again.
  for (let tries = 1; ; tries++) {
    const others = cap
      ? (await redis.zrangebyscore(byUser, String(cap.from), `(${cap.until}`))
          .filter((m) => m !== self)
          .map((m) => `${k.topUpNamePrefix}${m}`)
      : [];
    const reply = await tryUpdate(others);
    if (reply[0] !== 4) return outcome(reply);
    // Top-ups created faster than they can be read: answered as a race, which callers retry.
    if (tries >= MAX_KEY_READS) return { ok: false, reason: "version" };
  }

  async function tryUpdate(others: string[]) {
    return updateScript.runWithKeys(
      redis,
      {
        topUp: k.topUp(written.gateway, written.paymentId),
        due: k.topUpsDue,
        held: k.topUpsHeld,
        partial: k.topUpsPartial,
        ...ledgerKeys(k),
        byUser,
      },
      others,
      String(expectedVersion),
      String(written.version),
      JSON.stringify(written),
      self,
      dueAt === null ? "" : String(dueAt),
      written.status === "held" ? String(written.held?.at ?? written.updatedAt) : "",
      written.status === "partial_refund"
        ? String(written.partialRefund?.at ?? written.updatedAt)
        : "",
      t ? "1" : "0",
      ...(cap
        ? [cap.creditPaisa, cap.maxPaisa, cap.dailyCapPaisa, cap.from, cap.until].map(String)
        : ["", "", "", "", ""]),
      k.topUpNamePrefix,
      ...(t ? transferArgv(t, now()) : []),
    );
  }
}

/**
 * A stored record read strictly: an `UnreadableTopUpError` (issue paths and messages only, no
 * values) when it is not JSON or does not fit the schema.
 */
function parseRecord(member: string, json: string, version: string): TopUp {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    throw new UnreadableTopUpError(member, [`not JSON: ${String(err).slice(0, 100)}`]);
  }
  const r = topUpSchema.safeParse({ ...(raw as object), version: Number(version) });
  if (r.success) return r.data;
  const issues = r.error.issues.map((x) => `${x.path.join(".")}: ${x.message}`).slice(0, 5);
  throw new UnreadableTopUpError(member, issues);
}

/**
 * A top-up as the admins' lists read it; the error for a record that does not parse: one bad
 * record must not take the admins' whole list down (review s23-a, 4); the list counts it for the
 * admins instead (review s23-d, 1), and `owedAndLogged` owes its alert.
 */
function listed(member: string, json: string, version: string): TopUp | UnreadableTopUpError {
  try {
    return parseRecord(member, json, version);
  } catch (err) {
    if (!(err instanceof UnreadableTopUpError)) throw err;
    return err;
  }
}

/**
 * Owes the admins' alert of each unreadable record a list met, and logs it the first time only
 * (the one step that owes it): before, every read of the lists logged every bad record again
 * (review s24-e, 10), and one in the held or partial-refund list was never alerted (s24-e, 4).
 */
async function owedAndLogged(opts: StoreOptions, bad: readonly UnreadableTopUpError[]) {
  const { oweUnreadable } = redisUnreadable(opts.redis, opts.prefix);
  for (const err of bad) {
    if (await oweUnreadable(err.member))
      opts.logger?.error(
        { member: err.member, issues: err.issues },
        "listed top-up record does not parse: skipped and named; the admins are told",
      );
  }
}

/** How many schedule members `openSince` asks for at a time (ZSCAN's COUNT). */
const SCAN_PAGE = 500;

/**
 * Open top-ups created before `createdBefore`, oldest first. Every open top-up stays on the
 * schedule (`{money}:topups:due`) until the gateway ends it, so the schedule is read in pages and
 * each member's top-up checked (pipelined): the cost grows with what is scheduled (open top-ups, credited ones
 * on their refund watch), read only when an admin asks, rather than a new index in the update
 * script.
 */
async function openSince(
  opts: StoreOptions,
  createdBefore: number,
  limit: number,
): Promise<{ topUps: TopUp[]; unreadable: string[] }> {
  const { redis } = opts;
  const k = keyspace(opts.prefix);
  // ZSCAN, not pages by rank: the reconciler re-scores members meanwhile, and a scan still returns
  // every member there throughout (some twice: kept once, by name).
  const found = new Map<string, TopUp>();
  const bad = new Map<string, UnreadableTopUpError>();
  let cursor = "0";
  do {
    const [next, flat] = await redis.zscan(k.topUpsDue, cursor, "COUNT", SCAN_PAGE);
    cursor = next;
    const members = flat.filter((_, i) => i % 2 === 0);
    const pipe = redis.pipeline();
    for (const m of members) pipe.hmget(`${k.topUpNamePrefix}${m}`, "v", "j");
    const rows = (await pipe.exec()) ?? [];
    rows.forEach(([err, row], i) => {
      const [v, j] = (row ?? []) as [string | null, string | null];
      if (err || v == null || j == null) return;
      const t = listed(members[i]!, j, v);
      if (t instanceof UnreadableTopUpError) bad.set(t.member, t);
      else if (isOpenBefore(t, createdBefore)) found.set(members[i]!, t);
    });
  } while (cursor !== "0");
  await owedAndLogged(opts, [...bad.values()]);
  const topUps = [...found.values()].sort((a, b) => a.createdAt - b.createdAt).slice(0, limit);
  return { topUps, unreadable: [...bad.keys()] };
}

/**
 * Members `start` to `stop` of an admins' list (held, or partial refunds) that still have
 * `status`, oldest first, read in one pipeline; a record that does not parse is skipped, named in
 * `unreadable`, and its alert owed (logged the first time): one bad record hid every held top-up
 * from the admins, in the chat and the back office (review s23-e, 1). Same {money} slot as the
 * index on a Cluster.
 */
async function indexed(
  opts: StoreOptions,
  index: string,
  status: TopUp["status"],
  start: number,
  stop: number,
): Promise<{ topUps: TopUp[]; unreadable: string[]; read: number }> {
  const { redis } = opts;
  const members = await redis.zrange(index, String(start), String(stop));
  const { topUps, unreadable } = await readListed(opts, members);
  return { topUps: topUps.filter((t) => t.status === status), unreadable, read: members.length };
}

/**
 * The records of `members`, read in one pipeline, in their order; a member gone since is left out,
 * one that does not parse is named in `unreadable` and its alert owed (logged the first time).
 */
async function readListed(
  opts: StoreOptions,
  members: readonly string[],
): Promise<{ topUps: TopUp[]; unreadable: string[] }> {
  const k = keyspace(opts.prefix);
  const pipe = opts.redis.pipeline();
  for (const m of members) pipe.hmget(`${k.topUpNamePrefix}${m}`, "v", "j");
  const rows = members.length > 0 ? ((await pipe.exec()) ?? []) : [];
  const topUps: TopUp[] = [];
  const bad: UnreadableTopUpError[] = [];
  rows.forEach(([err, row], i) => {
    if (err) throw err;
    const [v, j] = (row ?? []) as [string | null, string | null];
    if (v == null || j == null) return;
    const t = listed(members[i]!, j, v);
    if (t instanceof UnreadableTopUpError) bad.push(t);
    else topUps.push(t);
  });
  await owedAndLogged(opts, bad);
  return { topUps, unreadable: bad.map((e) => e.member) };
}

/**
 * A user's top-ups created in [since, until), newest first, read in one pipeline (the caps read
 * them: creditLimit, usedToday). A record that does not parse is named apart and its alert owed,
 * not thrown: the throw reached the reconciler as the *paid* top-up's own, which was set aside
 * uncredited, and failed its return page, /addmoney and an admin's credit (review s31-pay, 1).
 */
async function listByUser(
  opts: StoreOptions,
  userId: number,
  since: number,
  until = Number.POSITIVE_INFINITY,
): Promise<UserTopUps> {
  const { redis } = opts;
  const k = keyspace(opts.prefix);
  const max = until === Number.POSITIVE_INFINITY ? "+inf" : `(${until}`;
  const members = await redis.zrevrangebyscore(k.topUpsByUser(userId), max, String(since));
  return readListed(opts, members);
}

/** How many list members `checkListed` reads at a time. */
const LIST_PAGE = 200;

/**
 * The reconciler's look at the whole held and partial-refund lists (off its schedule, so it never
 * meets a bad record there otherwise): a record there that does not parse gets its alert owed by
 * `indexed` (review s24-e, 4). The cost is a read of every held and partial-refund record per pass;
 * both lists are short (each waits for an admin).
 */
async function checkListed(opts: StoreOptions): Promise<void> {
  const k = keyspace(opts.prefix);
  for (const [index, status] of [
    [k.topUpsHeld, "held"],
    [k.topUpsPartial, "partial_refund"],
  ] as const) {
    for (let start = 0; ; start += LIST_PAGE) {
      const page = await indexed(opts, index, status, start, start + LIST_PAGE - 1);
      if (page.read < LIST_PAGE) break;
    }
  }
}

/** How many times `update` reads the user's top-ups when new ones keep coming in between. */
const MAX_KEY_READS = 5;

function outcome(reply: [number, unknown?]): UpdateOutcome {
  if (reply[0] === 0) return { ok: false, reason: "version" };
  if (reply[0] === 3) return { ok: false, reason: "cap", limitPaisa: Number(reply[1]) };
  if (reply[0] === 2) {
    const r = parseLedgerReply(reply[1]);
    if (r.ok) throw new Error("a booked transfer reported as refused");
    return { ok: false, reason: "ledger", refusal: r.refusal };
  }
  // Only {1} wrote anything: an answer not known here must never read as written (a lost credit).
  if (reply[0] !== 1) throw new Error(`top-up update script answered ${String(reply[0])}`);
  return reply[1] === undefined ? { ok: true } : { ok: true, ledger: parseLedgerReply(reply[1]) };
}

export function createRedisTopUpStore(opts: StoreOptions): TopUpStore {
  const { redis } = opts;
  const k = keyspace(opts.prefix);

  const split = (m: string): [string, string] => {
    const i = m.indexOf(":");
    return [m.slice(0, i), m.slice(i + 1)];
  };
  const get = async (gateway: string, paymentId: string): Promise<TopUp | null> => {
    const [v, j] = await redis.hmget(k.topUp(gateway, paymentId), "v", "j");
    return v == null || j == null ? null : parseRecord(member(gateway, paymentId), j, v);
  };

  return {
    async create(t, dueAt) {
      const v = topUpSchema.parse({ ...t, version: 0 });
      const created = await createScript.run(
        redis,
        {
          topUp: k.topUp(v.gateway, v.paymentId),
          byUser: k.topUpsByUser(v.userId),
          due: k.topUpsDue,
        },
        JSON.stringify(v),
        String(v.createdAt),
        member(v.gateway, v.paymentId),
        String(dueAt),
      );
      if (created !== 1) throw new Error(`top-up ${v.gateway}:${v.paymentId} exists`);
    },
    get,
    listByUser: (userId, since, until) => listByUser(opts, userId, since, until),
    update: (expectedVersion, next, transfer, dueAt, cap) =>
      update(opts, expectedVersion, next, transfer, dueAt, cap),
    async due(at, limit) {
      const members = await redis.zrangebyscore(k.topUpsDue, "-inf", String(at), "LIMIT", 0, limit);
      return members.map(split);
    },
    async held(limit) {
      return (await indexed(opts, k.topUpsHeld, "held", 0, limit - 1)).topUps;
    },
    openSince: (createdBefore, limit) => openSince(opts, createdBefore, limit),
    ...redisUnreadable(redis, opts.prefix),
    async unreadable(limit) {
      // Set aside by the reconciler, and those in the admins' two lists (off its schedule, so it
      // never meets them): the lists skip them, this names them (review s23-e, 1).
      const aside = await redis.srandmember(unreadableTopUpsKey(opts.prefix), limit);
      const held = await indexed(opts, k.topUpsHeld, "held", 0, limit - 1);
      const partial = await indexed(opts, k.topUpsPartial, "partial_refund", 0, limit - 1);
      return [...new Set([...aside, ...held.unreadable, ...partial.unreadable])]
        .sort()
        .slice(0, limit);
    },
    partialRefunds: async (limit) =>
      (await indexed(opts, k.topUpsPartial, "partial_refund", 0, limit - 1)).topUps,
    checkListed: () => checkListed(opts),
  };
}
