import { z } from "zod";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import type { OwedUnreadableAlert } from "./store.ts";

/**
 * Top-up records that do not parse, in Redis: the set of those set aside off the schedule, and
 * the admins' alert of each, owed until every admin chat has it (review s23-e, 2): a sorted set
 * (member -> when it is next due, or a sender's lease until) and a hash (member -> the chats that
 * have it, the failures in a row). All under the {money} tag: one slot on a Cluster.
 */

/** Set of "<gateway>:<paymentId>" set aside by the reconciler (reconcile-pass.ts). */
export const unreadableTopUpsKey = (prefix: string) => `${keyspace(prefix).topUpsDue}:unreadable`;
const owedKey = (prefix: string) => `${keyspace(prefix).topUpsDue}:unreadable:owed`;
const sentKey = (prefix: string) => `${keyspace(prefix).topUpsDue}:unreadable:sent`;

// KEYS: due, unreadable, owed. ARGV: member. Off the schedule; the alert owed the first time only.
const SET_ASIDE = `
redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[3], 0, ARGV[1])
return 1
`;

// KEYS: owed, sent. ARGV: member, now, lease until. The alert's state ('' none yet) to the one
// caller that finds it due; nil when it is not owed or another caller's lease runs.
const LEASE = `
local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not due or tonumber(due) > tonumber(ARGV[2]) then return false end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return redis.call('HGET', KEYS[2], ARGV[1]) or ''
`;

// KEYS: owed, sent. ARGV: member, state JSON, next due ('' = every chat has it: no longer owed).
const RECORD = `
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  return 1
end
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
`;

const setAsideScript = luaScript<"due" | "unreadable" | "owed", number>(
  "raTopUpSetAside",
  ["due", "unreadable", "owed"],
  SET_ASIDE,
);
const leaseScript = luaScript<"owed" | "sent", string | null>(
  "raTopUpUnreadableLease",
  ["owed", "sent"],
  LEASE,
);
const recordScript = luaScript<"owed" | "sent", number>(
  "raTopUpUnreadableRecord",
  ["owed", "sent"],
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
  return {
    async setAside(gateway: string, paymentId: string): Promise<boolean> {
      const keys = {
        due: keyspace(prefix).topUpsDue,
        unreadable: unreadableTopUpsKey(prefix),
        owed,
      };
      return (await setAsideScript.run(redis, keys, `${gateway}:${paymentId}`)) === 1;
    },
    async unreadableAlertsDue(now: number, limit: number): Promise<string[]> {
      return redis.zrangebyscore(owed, "-inf", String(now), "LIMIT", 0, limit);
    },
    async leaseUnreadableAlert(
      member: string,
      now: number,
      until: number,
    ): Promise<OwedUnreadableAlert | null> {
      const r = await leaseScript.run(redis, { owed, sent }, member, String(now), String(until));
      if (r === null) return null;
      // A state that does not parse counts as none: the alert is sent again, never lost.
      const s = r === "" ? null : stateSchema.safeParse(jsonOrNull(r));
      return { member, ...(s?.success ? s.data : { sentTo: [], failures: 0 }) };
    },
    async recordUnreadableAlert(
      member: string,
      sentTo: readonly number[],
      failures: number,
      retryAt: number | null,
    ): Promise<void> {
      const state = JSON.stringify(stateSchema.parse({ sentTo, failures }));
      const next = retryAt === null ? "" : String(retryAt);
      await recordScript.run(redis, { owed, sent }, member, state, next);
    },
  };
}
