import { z } from "zod";
import type { Logger } from "../logger.ts";
import type { RedisClient } from "../redis/connection.ts";
import { waOwedKeys } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import { storedJson } from "../stored-json.ts";

/**
 * The bot's answers to a customer that Meta's rate limit kept from going (router-owed.ts): owed
 * per chat, in the order the bot gave them, durable, and sent by one instance at a time (a lease
 * per chat) once WhatsApp takes sends again (owed-reply-worker.ts). While a chat owes any, its
 * later answers queue behind them and other sends to it wait: a chat's messages keep their order.
 */

const entrySchema = z.object({
  /** The chat message it renders (recorded already, without wamids). */
  messageId: z.number().int(),
  text: z.string(),
  rows: z.array(z.array(z.object({ label: z.string(), data: z.string() }))),
  /** When it was owed (ms): given up this long after (the worker's bound). */
  at: z.number(),
});
export type OwedReply = z.infer<typeof entrySchema>;

export interface OwedReplies {
  /** Whether the chat owes any answer (a later one goes behind it). */
  has(chatId: number): Promise<boolean>;
  /** Owed after the chat's others, the chat due at `dueAt` unless due or leased; false: full. */
  owe(chatId: number, entry: OwedReply, dueAt: number): Promise<boolean>;
  /** Chats due by `now`, at most `max`, each leased to the caller until `leaseUntil` (its score). */
  claim(now: number, leaseUntil: number, max: number): Promise<number[]>;
  /** The chat's oldest owed answer; null: none (the chat left the due set). */
  head(chatId: number): Promise<OwedReply | null>;
  /** Only while the lease (`lease`, its score) is the caller's: renewed to `until`. */
  take(chatId: number, lease: number, until: number): Promise<boolean>;
  /** The oldest answer sent (or given up): removed; the chat leaves the due set with its last. */
  pop(chatId: number): Promise<void>;
  /** Tried again at `dueAt`. */
  later(chatId: number, dueAt: number): Promise<void>;
}

/** Answers a chat may owe at once: a customer writing on through a long hold owes no more. */
export const MAX_OWED_PER_CHAT = 30;

export function createMemoryOwedReplies(): OwedReplies {
  const due = new Map<number, number>();
  const lists = new Map<number, OwedReply[]>();
  return {
    async has(chatId) {
      return (lists.get(chatId)?.length ?? 0) > 0;
    },
    async owe(chatId, entry, dueAt) {
      const list = lists.get(chatId) ?? [];
      if (list.length >= MAX_OWED_PER_CHAT) return false;
      list.push(entry);
      lists.set(chatId, list);
      if (!due.has(chatId)) due.set(chatId, dueAt);
      return true;
    },
    async claim(now, leaseUntil, max) {
      const ready = [...due].filter(([, at]) => at <= now).sort((a, b) => a[1] - b[1]);
      return ready.slice(0, max).map(([chatId]) => {
        due.set(chatId, leaseUntil);
        return chatId;
      });
    },
    async head(chatId) {
      const e = lists.get(chatId)?.[0];
      if (!e) due.delete(chatId);
      return e ?? null;
    },
    async take(chatId, lease, until) {
      if (due.get(chatId) !== lease) return false;
      due.set(chatId, until);
      return true;
    },
    async pop(chatId) {
      const list = lists.get(chatId) ?? [];
      list.shift();
      if (list.length > 0) return;
      lists.delete(chatId);
      due.delete(chatId);
    },
    async later(chatId, dueAt) {
      if (due.has(chatId)) due.set(chatId, dueAt);
    },
  };
}

/** KEYS: due, the chat's list. ARGV: chat id, entry JSON, due, max. 1 owed, 0 full. */
const oweScript = luaScript<"due" | "list", number>(
  "waOwedOwe",
  ["due", "list"],
  `
if redis.call('LLEN', KEYS[2]) >= tonumber(ARGV[4]) then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[1], 'NX', ARGV[3], ARGV[1])
return 1
`,
);

/** KEYS: due. ARGV: now, lease end, max. The due chats, each moved to the lease's end at once. */
const claimScript = luaScript<"due", string[]>(
  "waOwedClaim",
  ["due"],
  `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return ids
`,
);

/** KEYS: due, the chat's list. ARGV: chat id. The oldest entry; none: the chat leaves the due set. */
const headScript = luaScript<"due" | "list", string | null>(
  "waOwedHead",
  ["due", "list"],
  `
local e = redis.call('LINDEX', KEYS[2], 0)
if not e then redis.call('ZREM', KEYS[1], ARGV[1]) end
return e
`,
);

/** KEYS: due. ARGV: chat id, the caller's lease (its score), the new score. */
const takeScript = luaScript<"due", number>(
  "waOwedTake",
  ["due"],
  `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
`,
);

/** KEYS: due, the chat's list. ARGV: chat id. The oldest removed; the chat leaves with its last. */
const popScript = luaScript<"due" | "list", number>(
  "waOwedPop",
  ["due", "list"],
  `
redis.call('LPOP', KEYS[2])
local left = redis.call('LLEN', KEYS[2])
if left == 0 then redis.call('ZREM', KEYS[1], ARGV[1]) end
return left
`,
);

/** `logger`: an entry that cannot be read (a schema change) is logged and removed. */
export function createRedisOwedReplies(
  redis: RedisClient,
  prefix: string,
  logger?: Logger,
): OwedReplies {
  const k = waOwedKeys(prefix);
  const keys = (chatId: number) => ({ due: k.due, list: k.chat(chatId) });
  const store: OwedReplies = {
    async has(chatId) {
      return (await redis.exists(k.chat(chatId))) === 1;
    },
    async owe(chatId, entry, dueAt) {
      const json = JSON.stringify(entry);
      const r = await oweScript.run(redis, keys(chatId), chatId, json, dueAt, MAX_OWED_PER_CHAT);
      return Number(r) === 1;
    },
    async claim(now, leaseUntil, max) {
      const ids = await claimScript.run(redis, { due: k.due }, now, leaseUntil, max);
      return ids.map(Number);
    },
    async head(chatId) {
      for (;;) {
        const raw = await headScript.run(redis, keys(chatId), chatId);
        if (raw === null) return null;
        const entry = storedJson(entrySchema, raw);
        if (entry) return entry;
        // Else it would stop the chat's answers for good.
        logger?.error({ chatId, entry: raw.slice(0, 200) }, "whatsapp owed answer unreadable");
        await store.pop(chatId);
      }
    },
    async take(chatId, lease, until) {
      return Number(await takeScript.run(redis, { due: k.due }, chatId, lease, until)) === 1;
    },
    async pop(chatId) {
      await popScript.run(redis, keys(chatId), chatId);
    },
    async later(chatId, dueAt) {
      await redis.zadd(k.due, "XX", dueAt, String(chatId));
    },
  };
  return store;
}
