import { z } from "zod";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { storedJson } from "../stored-json.ts";

/**
 * What the notifier sent for an order, for the back office's timeline: each push (the order's
 * final word, an admin alert about it) with when, to which chat, the status it told and whether
 * the messenger took it (and why not). Bounded per order and kept 180 days; written after the
 * send, apart from the money path (a log line lost with a crash loses no money and no message).
 */

export const sentEntrySchema = z.object({
  at: z.number().int(),
  chatId: z.number().int(),
  /** "push": a new message; the receipt edits are not listed (they repeat the push's words). */
  kind: z.enum(["push"]),
  /** The order status the message told. */
  status: z.string().max(32),
  ok: z.boolean(),
  /** Why the messenger refused it (its description, cut). */
  error: z.string().max(300).optional(),
});
export type SentEntry = z.infer<typeof sentEntrySchema>;

export interface SentLog {
  add(reference: string, entry: SentEntry): Promise<void>;
  /** Oldest first. */
  list(reference: string): Promise<SentEntry[]>;
}

const KEEP = 50;
const TTL_SECONDS = 180 * 86_400;

export function memorySentLog(): SentLog {
  const lists = new Map<string, SentEntry[]>();
  return {
    async add(reference, entry) {
      const list = [...(lists.get(reference) ?? []), sentEntrySchema.parse(entry)].slice(-KEEP);
      lists.set(reference, list);
    },
    async list(reference) {
      return lists.get(reference) ?? [];
    },
  };
}

export function redisSentLog(redis: RedisClient, prefix: string): SentLog {
  const k = keyspace(prefix);
  return {
    async add(reference, entry) {
      const key = k.orderSent(reference);
      // A log, not a transaction: the push and its expiry go in one write (two commands), and the
      // list is trimmed only once it has grown past what is kept (rare: an order sends a few).
      const [pushed] =
        (await redis
          .pipeline()
          .rpush(key, JSON.stringify(sentEntrySchema.parse(entry)))
          .expire(key, TTL_SECONDS)
          .exec()) ?? [];
      if (pushed?.[0]) throw pushed[0];
      if (Number(pushed?.[1]) > KEEP) await redis.ltrim(key, -KEEP, -1);
    },
    async list(reference) {
      const raw = await redis.lrange(k.orderSent(reference), 0, -1);
      return raw.flatMap((r) => storedJson(sentEntrySchema, r) ?? []);
    },
  };
}
