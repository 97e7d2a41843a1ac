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

/**
 * Writes the list only if it is still the one the change was made on: its version `expected` and,
 * when given, its JSON `expectedJson` (a list this process remembers, not read just now: the text
 * too, so a list deleted and written again up to the same version is never taken for it).
 * KEYS: list. ARGV: expected, JSON, expectedJson?.
 */
const compareAndSet = luaScript<"list", number>(
  "raSavedCas",
  ["list"],
  `
local cur = redis.call('HMGET', KEYS[1], 'v', 'j')
local v = cur[1] or '0'
if v ~= ARGV[1] then return 0 end
if ARGV[3] and (cur[2] or '') ~= ARGV[3] then return 0 end
redis.call('HSET', KEYS[1], 'v', tostring(tonumber(v) + 1), 'j', ARGV[2])
return 1
`,
);

/** Another writer won this many times in a row: give up rather than spin. */
const MAX_ATTEMPTS = 20;

/** Lists this process read or wrote, kept this long for the next change (a flow's read, then the save after its order). */
const REMEMBER_MS = 10 * 60_000;
/** Users whose list is remembered at most (the oldest is forgotten first). */
const REMEMBER_MAX = 1_000;

export function createRedisSaved(opts: {
  redis: RedisClient;
  prefix: string;
  now?: () => number;
}): SavedStore {
  const { redis } = opts;
  const now = opts.now ?? Date.now;
  const k = keyspace(opts.prefix);
  /**
   * The list as this process last read or wrote it, by user: a change starts from it instead of a
   * read (one command less for the save after an order, whose flow read the list). The
   * compare-and-set checks version and text, so a list changed elsewhere meanwhile only costs a
   * read and a second try, never a lost change.
   */
  const known = new Map<number, { version: string; json: string; at: number }>();
  const remember = (userId: number, version: string, json: string) => {
    known.delete(userId);
    known.set(userId, { version, json, at: now() });
    if (known.size > REMEMBER_MAX) known.delete(known.keys().next().value as number);
  };
  const parse = (j: string) => (j ? savedListSchema.parse(JSON.parse(j)) : []);
  const load = async (userId: number) => {
    const [v, j] = await redis.hmget(k.saved(userId), "v", "j");
    const version = v ?? "0";
    remember(userId, version, j ?? "");
    return { version, entries: parse(j ?? ""), json: j ?? "" };
  };
  return over(
    async (userId) => (await load(userId)).entries,
    async (userId, fn) => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const mine = attempt === 0 ? known.get(userId) : undefined;
        const remembered = mine !== undefined && now() - mine.at <= REMEMBER_MS;
        const { version, entries, json } = remembered
          ? { version: mine.version, entries: parse(mine.json), json: mine.json }
          : await load(userId);
        const after = fn(entries);
        // "No such entry" is only believed of a list just read.
        if (after === null && remembered) continue;
        if (after === null) return null;
        const text = JSON.stringify(after);
        const written = await compareAndSet.run(
          redis,
          { list: k.saved(userId) },
          version,
          text,
          ...(remembered ? [json] : []),
        );
        if (written === 1) {
          remember(userId, String(Number(version) + 1), text);
          return after;
        }
        known.delete(userId);
      }
      throw new Error(`saved entries of user ${userId}: too many concurrent changes`);
    },
  );
}
