import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import type { OwedUnreadableAlert } from "./store.ts";

/**
 * Top-up records that do not parse, in Redis: the set of those found (set aside off the schedule
 * by the reconciler, or met in the held and partial-refund lists), and the admins' alert of each,
 * owed until every admin chat has it (review s23-e, 2): a sorted set (member -> when it is next
 * due), a hash (member -> the chats that have it, the failures in a row) and, while a sender
 * works, a lease key per member holding its token, expired by Redis's own clock (review s24-e, 5:
 * before, the lease was a time one instance wrote and another compared with its own clock, and
 * the record step did not check whose lease it was). All under the {money} tag: one slot.
 */

/** Set of "<gateway>:<paymentId>" found unreadable (set aside, or in the admins' lists). */
export const unreadableTopUpsKey = (prefix: string) => `${keyspace(prefix).topUpsDue}:unreadable`;
const owedKey = (prefix: string) => `${keyspace(prefix).topUpsDue}:unreadable:owed`;
const sentKey = (prefix: string) => `${keyspace(prefix).topUpsDue}:unreadable:sent`;
const leaseKey = (prefix: string, member: string) =>
  `${keyspace(prefix).topUpsDue}:unreadable:lease:${member}`;

// KEYS: unreadable, owed. ARGV: member. The alert owed the first time it is found only.
const OWE = `
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], 0, ARGV[1])
return 1
`;

// KEYS: due, unreadable, owed. ARGV: member. Off the schedule; owed as OWE.
const SET_ASIDE = `
redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[3], 0, ARGV[1])
return 1
`;

// KEYS: owed, sent, lease. ARGV: member, now, lease ms, token. The alert's state ('' none yet)
// to the one caller that finds it due and takes the lease (SET NX PX: Redis's clock ends it);
// nil when it is not owed, not due, or another caller's lease runs.
const LEASE = `
local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not due or tonumber(due) > tonumber(ARGV[2]) then return false end
if not redis.call('SET', KEYS[3], ARGV[4], 'NX', 'PX', ARGV[3]) then return false end
return redis.call('HGET', KEYS[2], ARGV[1]) or ''
`;

// KEYS: owed, sent, lease. ARGV: member, token, state JSON, next due ('' = every chat has it: no
// longer owed; '-' = progress: keep the lease and the due time). 0 when the lease is not the
// caller's any more (it ran out: whoever holds it now owns the send), 1 when recorded.
const RECORD = `
if redis.call('GET', KEYS[3]) ~= ARGV[2] then return 0 end
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('DEL', KEYS[3])
  return 1
end
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
if ARGV[4] == '-' then return 1 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
redis.call('DEL', KEYS[3])
return 1
`;

const oweScript = luaScript<"unreadable" | "owed", number>(
  "raTopUpUnreadableOwe",
  ["unreadable", "owed"],
  OWE,
);
const setAsideScript = luaScript<"due" | "unreadable" | "owed", number>(
  "raTopUpSetAside",
  ["due", "unreadable", "owed"],
  SET_ASIDE,
);
const leaseScript = luaScript<"owed" | "sent" | "lease", string | null>(
  "raTopUpUnreadableLease",
  ["owed", "sent", "lease"],
  LEASE,
);
const recordScript = luaScript<"owed" | "sent" | "lease", number>(
  "raTopUpUnreadableRecord",
  ["owed", "sent", "lease"],
  RECORD,
);

const stateSchema = z.object({
  sentTo: z.array(z.number().int()),
  failures: z.number().int().nonnegative(),
});

function jsonOrNull(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}

/** The store's part for unreadable records (redis-store.ts spreads it in). */
export function redisUnreadable(redis: RedisClient, prefix: string) {
  const owed = owedKey(prefix);
  const sent = sentKey(prefix);
  const unreadable = unreadableTopUpsKey(prefix);
  return {
    async oweUnreadable(member: string): Promise<boolean> {
      return (await oweScript.run(redis, { unreadable, owed }, member)) === 1;
    },
    async setAside(gateway: string, paymentId: string): Promise<boolean> {
      const keys = { due: keyspace(prefix).topUpsDue, unreadable, owed };
      return (await setAsideScript.run(redis, keys, `${gateway}:${paymentId}`)) === 1;
    },
    async unreadableAlertsDue(now: number, limit: number): Promise<string[]> {
      return redis.zrangebyscore(owed, "-inf", String(now), "LIMIT", 0, limit);
    },
    async leaseUnreadableAlert(
      member: string,
      now: number,
      leaseMs: number,
    ): Promise<OwedUnreadableAlert | null> {
      const token = randomBytes(16).toString("hex");
      const keys = { owed, sent, lease: leaseKey(prefix, member) };
      const r = await leaseScript.run(redis, keys, member, String(now), String(leaseMs), token);
      if (r === null) return null;
      // A state that does not parse counts as none: the alert is sent again, never lost.
      const s = r === "" ? null : stateSchema.safeParse(jsonOrNull(r));
      return { member, token, ...(s?.success ? s.data : { sentTo: [], failures: 0 }) };
    },
    async recordUnreadableAlert(
      lease: Pick<OwedUnreadableAlert, "member" | "token">,
      sentTo: readonly number[],
      failures: number,
      retryAt: number | null | "progress",
    ): Promise<boolean> {
      const state = JSON.stringify(stateSchema.parse({ sentTo, failures }));
      const next = retryAt === null ? "" : retryAt === "progress" ? "-" : String(retryAt);
      const keys = { owed, sent, lease: leaseKey(prefix, lease.member) };
      return (await recordScript.run(redis, keys, lease.member, lease.token, state, next)) === 1;
    },
  };
}
