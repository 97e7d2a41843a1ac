import { z } from "zod";
import type { Logger } from "../logger.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { storedJson } from "../stored-json.ts";
import { setAccessFlags } from "./access-flags.ts";

/**
 * Who the merchant blocked (issue 29: an abusive account), with the reason, by whom and when.
 * The chat's access check reads the user's access flags (access-flags.ts), which `block` and
 * `unblock` write around the record, on every update: a block takes effect at once, on every
 * instance sharing the Redis. Orders already in
 * flight are not touched (the check runs before an order is placed, never after). Unblocking
 * deletes the record; the back office's audit log keeps the history (who, when, why, before and
 * after).
 */

export const blockReasonSchema = z.string().trim().min(1).max(300);

export const blockSchema = z.object({
  userId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  reason: blockReasonSchema,
  /** The admin who blocked. */
  by: z.number().int(),
  at: z.number().int().nonnegative(),
});
export type Block = z.infer<typeof blockSchema>;

export interface BlockedUsers {
  isBlocked(userId: number): Promise<boolean>;
  get(userId: number): Promise<Block | null>;
  /** Blocks (again, with the new reason, when already blocked); the record before and after. */
  block(b: Block): Promise<{ before: Block | null; after: Block }>;
  /** Ends a block; the record before (null: the person was not blocked). */
  unblock(userId: number): Promise<{ before: Block | null }>;
  /** Everyone blocked, newest block first, at most `limit`. */
  list(limit: number): Promise<Block[]>;
}

const parse = (raw: string | null | undefined): Block | null => storedJson(blockSchema, raw);

const newestFirst = (list: Block[], limit: number) =>
  list.sort((a, b) => b.at - a.at || a.userId - b.userId).slice(0, Math.max(0, limit));

export function createMemoryBlocked(): BlockedUsers {
  const blocks = new Map<number, Block>();
  return {
    isBlocked: async (userId) => blocks.has(userId),
    get: async (userId) => blocks.get(userId) ?? null,
    async block(b) {
      const after = blockSchema.parse(b);
      const before = blocks.get(after.userId) ?? null;
      blocks.set(after.userId, after);
      return { before, after };
    },
    async unblock(userId) {
      const before = blocks.get(userId) ?? null;
      blocks.delete(userId);
      return { before };
    },
    list: async (limit) => newestFirst([...blocks.values()], limit),
  };
}

/**
 * One hash, user id → block JSON; each change is a MULTI on that one key (Cluster-safe). The
 * access flag (access-flags.ts): `block` sets it blocked before the record (a reader that looks
 * meanwhile checks the hash) and again after it (a racing unblock may have made it unknown, and a
 * reader then filled "not blocked" from the hash read before the record); `unblock` makes
 * it unknown after the record (never "not blocked": a block racing it may have written its "1"
 * already). A flag write after the record that fails is logged, not thrown: the record is written,
 * and what the flag then says ("1" or unknown) makes the reader check the record.
 */
export function createRedisBlocked(opts: {
  redis: RedisClient;
  prefix: string;
  logger?: Logger | undefined;
}): BlockedUsers {
  const { redis, prefix, logger } = opts;
  const key = keyspace(prefix).accountBlocked;
  const earlier = (replies: [Error | null, unknown][] | null): Block | null => {
    const [first] = replies ?? [];
    if (!first || first[0]) throw first?.[0] ?? new Error("blocked users: no answer");
    return parse(first[1] as string | null);
  };
  const flagAfter = async (userId: number, blocked: true | "?") => {
    try {
      await setAccessFlags(redis, prefix, userId, { blocked });
    } catch (err) {
      logger?.warn(
        { userId, err: String(err) },
        "access flag not written after the block record (the chat checks the record)",
      );
    }
  };
  return {
    isBlocked: async (userId) => (await redis.hexists(key, String(userId))) === 1,
    get: async (userId) => parse(await redis.hget(key, String(userId))),
    async block(b) {
      const after = blockSchema.parse(b);
      const field = String(after.userId);
      await setAccessFlags(redis, prefix, after.userId, { blocked: true });
      const replies = await redis
        .multi()
        .hget(key, field)
        .hset(key, field, JSON.stringify(after))
        .exec();
      const before = earlier(replies);
      await flagAfter(after.userId, true);
      return { before, after };
    },
    async unblock(userId) {
      const field = String(userId);
      const replies = await redis.multi().hget(key, field).hdel(key, field).exec();
      const before = earlier(replies);
      await flagAfter(userId, "?");
      return { before };
    },
    async list(limit) {
      const all = Object.values(await redis.hgetall(key));
      return newestFirst(
        all.map(parse).filter((b): b is Block => b !== null),
        limit,
      );
    },
  };
}
