import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import * as logic from "./logic.ts";
import {
  type Nickname,
  type SavedEntry,
  type SavedInput,
  savedId,
  savedListSchema,
} from "./model.ts";

/**
 * Where saved entries live: one list per user (every category), in memory or in Redis. Changes
 * are the pure rules of logic.ts applied to the whole list; on Redis under a compare-and-set of
 * the list's version, so two chats of one user (or two processes) never lose each other's change.
 */
export interface SavedStore {
  /** Every entry of the user, newest used first. */
  list(userId: number): Promise<SavedEntry[]>;
  /** Saves or refreshes an entry (a known one keeps its nickname); returns it as stored. */
  remember(userId: number, input: SavedInput): Promise<SavedEntry>;
  /** Null when the entry is gone (deleted in another chat). */
  rename(userId: number, id: string, nickname: Nickname): Promise<SavedEntry | null>;
  /** False when there was no such entry. */
  remove(userId: number, id: string): Promise<boolean>;
}

type Change = (entries: SavedEntry[]) => SavedEntry[] | null;

/** The store's operations over a `change(userId, fn)` that applies fn atomically to the list. */
function over(
  read: (userId: number) => Promise<SavedEntry[]>,
  change: (userId: number, fn: Change) => Promise<SavedEntry[] | null>,
): SavedStore {
  return {
    list: async (userId) => logic.newestFirst(await read(userId)),
    async remember(userId, input) {
      const after = await change(userId, (entries) => logic.rememberEntry(entries, input));
      const id = savedId(input);
      const entry = after?.find((e) => e.id === id);
      if (!entry) throw new Error("a remembered entry is missing from the list");
      return entry;
    },
    async rename(userId, id, nickname) {
      const after = await change(userId, (entries) => logic.renameEntry(entries, id, nickname));
      return after?.find((e) => e.id === id) ?? null;
    },
    async remove(userId, id) {
      return (await change(userId, (entries) => logic.removeEntry(entries, id))) !== null;
    },
  };
}

export function createMemorySaved(): SavedStore {
  const lists = new Map<number, SavedEntry[]>();
  return over(
    async (userId) => lists.get(userId) ?? [],
    async (userId, fn) => {
      // Read, change and write in one synchronous step: nothing interleaves.
      const after = fn(lists.get(userId) ?? []);
      if (after !== null) lists.set(userId, after);
      return after;
    },
  );
}

/** Writes the list only if its version is still `expected`. KEYS: list. ARGV: expected, JSON. */
const compareAndSet = luaScript<"list", number>(
  "raSavedCas",
  ["list"],
  `
local v = redis.call('HGET', KEYS[1], 'v') or '0'
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tostring(tonumber(v) + 1), 'j', ARGV[2])
return 1
`,
);

/** Another writer won this many times in a row: give up rather than spin. */
const MAX_ATTEMPTS = 20;

export function createRedisSaved(opts: { redis: RedisClient; prefix: string }): SavedStore {
  const { redis } = opts;
  const k = keyspace(opts.prefix);
  const load = async (userId: number) => {
    const [v, j] = await redis.hmget(k.saved(userId), "v", "j");
    return { version: v ?? "0", entries: j ? savedListSchema.parse(JSON.parse(j)) : [] };
  };
  return over(
    async (userId) => (await load(userId)).entries,
    async (userId, fn) => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const { version, entries } = await load(userId);
        const after = fn(entries);
        if (after === null) return null;
        const written = await compareAndSet.run(
          redis,
          { list: k.saved(userId) },
          version,
          JSON.stringify(after),
        );
        if (written === 1) return after;
      }
      throw new Error(`saved entries of user ${userId}: too many concurrent changes`);
    },
  );
}
