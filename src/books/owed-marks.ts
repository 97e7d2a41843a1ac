import type { MemoryOwed } from "../orders/memory-store.ts";
import type { RedisClient } from "../redis/connection.ts";
import type { Keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";

/**
 * The repair's side of the owed marks (session 30): the orders whose write marked them owed an
 * hourly count (src/orders/owed.ts) that no count or tell took, read and set aside. The count and
 * the tell that take a mark are the crossings' scripts (crossing.ts), one step with the note.
 */
export interface OwedMarks {
  /**
   * The orders in the note's owed set marked at or before `before` (oldest first, at most
   * `limit`): marked by their step and never counted (the process ended in between).
   */
  owedBefore(name: string, before: number, limit: number): Promise<OwedMark[]>;
  /**
   * A mark the repair could not take (its order unreadable or missing, its tell failing): set
   * aside until `retryAt` (its score moved, so it cannot starve the marks after it), or dropped
   * when it was marked before `dropBefore`, in one atomic step. "gone": a count took it meanwhile.
   */
  owedRetry(
    name: string,
    reference: string,
    retryAt: number,
    dropBefore: number,
  ): Promise<"retry" | "dropped" | "gone">;
}

/**
 * An owed mark: `at` is when the repair may take it (its score: the mark's time, or the retry's
 * after a failure), `markedAt` when the order's write marked it.
 */
export interface OwedMark {
  reference: string;
  at: number;
  markedAt: number;
}

/** The memory marks, with `take`: what a count or tell that takes a mark clears. */
export interface MemoryOwedMarks extends OwedMarks {
  take(name: string, reference: string): void;
}

/** Over `owed`, the map shared with the memory order store (none: no marks). */
export function createMemoryOwedMarks(owed?: MemoryOwed): MemoryOwedMarks {
  /** The mark's own time of a mark set aside (its score is then its retry's time). */
  const markedAt = new Map<string, Map<string, number>>();
  const take = (name: string, reference: string) => {
    owed?.get(name)?.delete(reference);
    markedAt.get(name)?.delete(reference);
  };
  return {
    take,
    async owedBefore(name, before, limit) {
      const since = markedAt.get(name);
      return [...(owed?.get(name) ?? [])]
        .filter(([, at]) => at <= before)
        .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
        .slice(0, Math.max(0, limit))
        .map(([reference, at]) => ({ reference, at, markedAt: since?.get(reference) ?? at }));
    },
    async owedRetry(name, reference, retryAt, dropBefore) {
      const at = owed?.get(name)?.get(reference);
      if (at === undefined) {
        markedAt.get(name)?.delete(reference);
        return "gone";
      }
      const since = markedAt.get(name)?.get(reference) ?? at;
      if (since < dropBefore) {
        take(name, reference);
        return "dropped";
      }
      owed?.get(name)?.set(reference, retryAt);
      const times = markedAt.get(name) ?? new Map<string, number>();
      markedAt.set(name, times.set(reference, since));
      return "retry";
    },
  };
}

// A mark the repair could not take. KEYS: the owed set, its marks' own times (a hash: a mark set
// aside keeps its time there, as its score becomes the retry's). ARGV: the reference, the retry's
// time, the time before which a mark is dropped. 1: set aside; 2: dropped; 0: not owed any more
// (a count took it). The counts and tells only ZREM the set (older scripts too): an entry of the
// hash whose mark they took is cleared by the next retry or drop of that reference, or stays (a
// few bytes, only for marks that once failed).
const OWED_RETRY = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then redis.call('HDEL', KEYS[2], ARGV[1]) return 0 end
local since = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or score)
if since < tonumber(ARGV[3]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  return 2
end
redis.call('ZADD', KEYS[1], 'XX', ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], string.format('%.17g', since))
return 1
`;
const owedRetryScript = luaScript<"owed" | "since", number>(
  "raHourlyOwedRetry",
  ["owed", "since"],
  OWED_RETRY,
);

/** The marks in the crossings' keys: `owed:<name>` (the set), `owed-since:<name>` (marks' times). */
export function createRedisOwedMarks(redis: RedisClient, k: Keyspace): OwedMarks {
  return {
    async owedBefore(name, before, limit) {
      if (limit <= 0) return [];
      const flat = await redis.zrangebyscore(
        k.crossing(`owed:${name}`),
        "-inf",
        before,
        "WITHSCORES",
        "LIMIT",
        0,
        limit,
      );
      const owed: OwedMark[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const at = Number(flat[i + 1]);
        owed.push({ reference: flat[i] ?? "", at, markedAt: at });
      }
      if (owed.length === 0) return owed;
      // A mark set aside keeps its own time in the hash (none: its score is it).
      const since = await redis.hmget(
        k.crossing(`owed-since:${name}`),
        ...owed.map((o) => o.reference),
      );
      return owed.map((o, i) => {
        const t = Number(since[i] ?? Number.NaN);
        return Number.isFinite(t) ? { ...o, markedAt: t } : o;
      });
    },
    async owedRetry(name, reference, retryAt, dropBefore) {
      const r = await owedRetryScript.run(
        redis,
        { owed: k.crossing(`owed:${name}`), since: k.crossing(`owed-since:${name}`) },
        reference,
        retryAt,
        dropBefore,
      );
      return r === 1 ? "retry" : r === 2 ? "dropped" : "gone";
    },
  };
}
