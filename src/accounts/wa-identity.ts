import type { Logger } from "../logger.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import { flagsAfterRegister } from "./access-flags.ts";
import type { Phone } from "./phone.ts";

/**
 * Which WhatsApp user a WhatsApp-born account belongs to (Meta's business-scoped `user_id`, which
 * Meta re-issues when a number changes hands), and the fresh account a recycled number's new
 * holder gets (whatsapp/inbound.ts `ownAccount`). In the accounts' tag beside the phones.
 */

/**
 * The recycled number's fresh account (`freshWaAccount`). KEYS: phones, users, Meta user ids,
 * blocked. ARGV: the phone, the owner it moves from, the fresh id, its Meta user id. -1 when the
 * phone is no longer that owner's (nothing written), else whether the fresh id is blocked.
 */
const freshScript = luaScript<"phones" | "users" | "waUsers" | "blocked", number>(
  "raWaFresh",
  ["phones", "users", "waUsers", "blocked"],
  `
local phone, from, id = ARGV[1], ARGV[2], ARGV[3]
if redis.call('HGET', KEYS[1], phone) ~= from then return -1 end
redis.call('HSET', KEYS[3], id, ARGV[4])
if redis.call('HGET', KEYS[2], from) == phone then redis.call('HDEL', KEYS[2], from) end
redis.call('HSET', KEYS[1], phone, id)
redis.call('HSET', KEYS[2], id, phone)
return redis.call('HEXISTS', KEYS[4], id)
`,
);

export interface WaIdentity {
  /**
   * The Meta user id (`contacts[].user_id`) a WhatsApp-born account belongs to: the one recorded,
   * else this one, recorded now. Trust on first use: the first user id seen for the account is
   * believed (the one its registration kept in the profile, else the one of the first message
   * carrying one, also for accounts registered before user ids were recorded); a message from
   * its number with another user id is someone else's (whatsapp/inbound.ts).
   */
  adoptWaUser(userId: number, waUserId: string): Promise<string>;
  /**
   * A fresh account for the new holder of a recycled number: a new id (`id`), bound to the
   * holder's Meta user id, and the phone moved to it from `from` (whose account, balance and
   * history stay as they are, without the number). Only while `from` still owns the phone: false
   * otherwise, nothing written.
   */
  freshWaAccount(id: number, phone: Phone, from: number, waUserId: string): Promise<boolean>;
  /** The next fresh WhatsApp account's number (added to whatsapp/chat-ids.ts WA_FRESH_BASE). */
  nextWaFresh(): Promise<number>;
}

export function redisWaIdentity(opts: {
  redis: RedisClient;
  prefix: string;
  logger?: Logger | undefined;
  /** The account's profile: the user id its registration kept, if any. */
  profileOf: (userId: number) => Promise<{ waUserId?: string | undefined } | null>;
}): WaIdentity {
  const { redis, profileOf } = opts;
  const k = keyspace(opts.prefix);
  return {
    // Once per account (the arrival reads the recorded one after): the registration's, else this.
    async adoptWaUser(userId, waUserId) {
      const field = String(userId);
      const kept = await redis.hget(k.accountWaUsers, field);
      if (kept !== null) return kept;
      const first = (await profileOf(userId))?.waUserId ?? waUserId;
      await redis.hsetnx(k.accountWaUsers, field, first);
      return (await redis.hget(k.accountWaUsers, field)) ?? first;
    },
    async nextWaFresh() {
      return redis.incr(k.accountWaFresh);
    },
    async freshWaAccount(id, phone, from, waUserId) {
      const blocked = await freshScript.run(
        redis,
        {
          phones: k.accountPhones,
          users: k.accountUsers,
          waUsers: k.accountWaUsers,
          blocked: k.accountBlocked,
        },
        phone,
        String(from),
        String(id),
        waUserId,
      );
      if (blocked === -1) return false;
      await flagsAfterRegister(redis, opts.prefix, opts.logger, id, {
        moved: String(from),
        blocked: blocked === 1,
      });
      return true;
    },
  };
}
