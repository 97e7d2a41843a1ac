import type { RedisClient } from "../redis/connection.ts";
import { luaScript } from "../redis/scripts.ts";

/**
 * The few storage operations the back office needs (links, sessions, the audit log), so it runs
 * on the product's Redis and, in local mode without Redis, in this process's memory (like the
 * other stores there). Every operation touches one key (fine on a Redis Cluster), but lpushOnce:
 * a list and its marks, which the caller names in one slot (keyspace.ts dashboardAuditMarks).
 */
export interface DashboardKv {
  get(key: string): Promise<string | null>;
  /** Each key's value, in order: its GETs sent at once (one key each: fine on a Cluster). */
  getMany(keys: readonly string[]): Promise<Array<string | null>>;
  /** Reads and deletes in one step: of two callers at once, one gets the value. */
  getdel(key: string): Promise<string | null>;
  /** Sets with a time to live. */
  setPx(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets with a time to live and gives the value it replaced (SET … GET): one atomic step. */
  swap(key: string, value: string, ttlMs: number): Promise<string | null>;
  /** Overwrites only an existing key, keeping its time to live; false when it is gone. */
  replace(key: string, value: string): Promise<boolean>;
  del(key: string): Promise<void>;
  /** Adds to a set and gives the whole set this time to live. */
  sadd(key: string, member: string, ttlMs: number): Promise<void>;
  srem(key: string, member: string): Promise<void>;
  smembers(key: string): Promise<string[]>;
  /** Pushes on the head of a list that is never trimmed. */
  lpush(key: string, value: string): Promise<void>;
  /** Pushes on the head of a list kept at most `keep` long. */
  lpushCapped(key: string, value: string, keep: number): Promise<void>;
  /** The first `count` of a list. */
  lhead(key: string, count: number): Promise<string[]>;
  /** `count` items of a list from `offset` (0: the head): a page of it. */
  lslice(key: string, offset: number, count: number): Promise<string[]>;
  /** Sets with a time to live only when the key is absent: true for the one caller that set it. */
  setNx(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Adds one to a counter; a new counter lives `ttlMs` (a later add keeps its end). The new count. */
  incrPx(key: string, ttlMs: number): Promise<number>;
  /**
   * Pushes `value` on the head of a never-trimmed list only when `mark` is not yet in the set
   * `marks`, and adds it, in one atomic step (the two keys in one slot): true when pushed. A line
   * written once whoever writes it and however often they try (the audit's, audit.ts recordOnce).
   */
  lpushOnce(list: string, marks: string, mark: string, value: string): Promise<boolean>;
  /** Whether each member is in the set, in order. */
  smismember(key: string, members: readonly string[]): Promise<boolean[]>;
}

// KEYS: the list, its marks (one slot). ARGV: the mark, the value.
const lpushOnceScript = luaScript<"list" | "marks", number>(
  "raDashLpushOnce",
  ["list", "marks"],
  `
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('LPUSH', KEYS[1], ARGV[2])
return 1
`,
);

export function redisKv(redis: RedisClient): DashboardKv {
  return {
    get: (key) => redis.get(key),
    getMany: (keys) => Promise.all(keys.map((k) => redis.get(k))),
    getdel: (key) => redis.getdel(key),
    async setPx(key, value, ttlMs) {
      await redis.set(key, value, "PX", ttlMs);
    },
    swap: (key, value, ttlMs) => redis.set(key, value, "PX", ttlMs, "GET"),
    async replace(key, value) {
      return (await redis.set(key, value, "KEEPTTL", "XX")) === "OK";
    },
    async del(key) {
      await redis.del(key);
    },
    async sadd(key, member, ttlMs) {
      await redis.sadd(key, member);
      await redis.pexpire(key, ttlMs);
    },
    async srem(key, member) {
      await redis.srem(key, member);
    },
    smembers: (key) => redis.smembers(key),
    async lpush(key, value) {
      await redis.lpush(key, value);
    },
    async lpushCapped(key, value, keep) {
      await redis.lpush(key, value);
      await redis.ltrim(key, 0, keep - 1);
    },
    lhead: (key, count) => redis.lrange(key, 0, Math.max(0, count - 1)),
    lslice: async (key, offset, count) =>
      count <= 0 ? [] : redis.lrange(key, offset, offset + count - 1),
    setNx: async (key, value, ttlMs) => (await redis.set(key, value, "PX", ttlMs, "NX")) === "OK",
    async incrPx(key, ttlMs) {
      const n = await redis.incr(key);
      // NX: only a counter without an end gets one (the first add, or one whose PEXPIRE was lost).
      await redis.pexpire(key, ttlMs, "NX");
      return n;
    },
    lpushOnce: async (list, marks, mark, value) =>
      (await lpushOnceScript.run(redis, { list, marks }, mark, value)) === 1,
    smismember: async (key, members) =>
      members.length === 0 ? [] : (await redis.smismember(key, ...members)).map((x) => x === 1),
  };
}

type Entry = { value: string | Set<string> | string[]; until: number };

/** In this process only (local mode without Redis); expiry by the wall clock, checked on read. */
export function memoryKv(now: () => number = Date.now): DashboardKv {
  const map = new Map<string, Entry>();
  const live = (key: string): Entry | undefined => {
    const e = map.get(key);
    if (e && e.until <= now()) map.delete(key);
    return map.get(key);
  };
  const text = (key: string) => {
    const v = live(key)?.value;
    return typeof v === "string" ? v : null;
  };
  return {
    get: async (key) => text(key),
    getMany: async (keys) => keys.map(text),
    async getdel(key) {
      const v = text(key);
      map.delete(key);
      return v;
    },
    async setPx(key, value, ttlMs) {
      map.set(key, { value, until: now() + ttlMs });
    },
    async swap(key, value, ttlMs) {
      const was = text(key);
      map.set(key, { value, until: now() + ttlMs });
      return was;
    },
    async replace(key, value) {
      const e = live(key);
      if (!e) return false;
      e.value = value;
      return true;
    },
    async del(key) {
      map.delete(key);
    },
    async sadd(key, member, ttlMs) {
      const v = live(key)?.value;
      const set = v instanceof Set ? v : new Set<string>();
      set.add(member);
      map.set(key, { value: set, until: now() + ttlMs });
    },
    async srem(key, member) {
      const v = live(key)?.value;
      if (v instanceof Set) v.delete(member);
    },
    smembers: async (key) => {
      const v = live(key)?.value;
      return v instanceof Set ? [...v] : [];
    },
    async lpush(key, value) {
      const v = live(key)?.value;
      const list = Array.isArray(v) ? v : [];
      list.unshift(value);
      map.set(key, { value: list, until: Number.POSITIVE_INFINITY });
    },
    async lpushCapped(key, value, keep) {
      const v = live(key)?.value;
      const list = Array.isArray(v) ? v : [];
      list.unshift(value);
      list.length = Math.min(list.length, keep);
      map.set(key, { value: list, until: Number.POSITIVE_INFINITY });
    },
    lhead: async (key, count) => {
      const v = live(key)?.value;
      return Array.isArray(v) ? v.slice(0, Math.max(0, count)) : [];
    },
    lslice: async (key, offset, count) => {
      const v = live(key)?.value;
      return Array.isArray(v) && count > 0 ? v.slice(offset, offset + count) : [];
    },
    async setNx(key, value, ttlMs) {
      if (live(key)) return false;
      map.set(key, { value, until: now() + ttlMs });
      return true;
    },
    async incrPx(key, ttlMs) {
      const e = live(key);
      const n = (typeof e?.value === "string" ? Number(e.value) || 0 : 0) + 1;
      map.set(key, { value: String(n), until: e ? e.until : now() + ttlMs });
      return n;
    },
    // One synchronous step, as the script is one: no await between the mark and the push.
    async lpushOnce(list, marks, mark, value) {
      const v = live(marks)?.value;
      const set = v instanceof Set ? v : new Set<string>();
      if (set.has(mark)) return false;
      set.add(mark);
      map.set(marks, { value: set, until: Number.POSITIVE_INFINITY });
      const l = live(list)?.value;
      const items = Array.isArray(l) ? l : [];
      items.unshift(value);
      map.set(list, { value: items, until: Number.POSITIVE_INFINITY });
      return true;
    },
    smismember: async (key, members) => {
      const v = live(key)?.value;
      return members.map((m) => v instanceof Set && v.has(m));
    },
  };
}
