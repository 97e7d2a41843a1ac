import type { Logger } from "../logger.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import { flagsAfterRegister } from "./access-flags.ts";
import type { Phone } from "./phone.ts";
import { freshIdLua } from "./wa-identity.ts";

/**
 * A held WhatsApp chat taking its number from the account that registered it (the link gate's
 * `new yes`: conversations/register/link-gate.ts): only from the owner its handler read, in one
 * step. Another update of the same chat, handled on the same stale read, or a Telegram
 * registration that landed since, finds another owner: nothing is opened or moved.
 */

/**
 * The phone's move to `uid` (the latest sharer wins: `register`), as Lua: KEYS[1] phones,
 * KEYS[2] users; reads locals `uid` and `phone`, sets local `moved` (the owner it was taken from,
 * "" for none). Shared by the register script (accounts/store.ts).
 */
export const MOVE_PHONE_LUA = `
local old = redis.call('HGET', KEYS[2], uid)
if old and old ~= phone and redis.call('HGET', KEYS[1], old) == uid then
  redis.call('HDEL', KEYS[1], old)
end
local owner = redis.call('HGET', KEYS[1], phone)
local moved = ''
if owner and owner ~= uid then
  redis.call('HDEL', KEYS[2], owner)
  moved = owner
end
redis.call('HSET', KEYS[1], phone, uid)
redis.call('HSET', KEYS[2], uid, phone)`;

/**
 * KEYS: phones, users, blocked, fresh id counter, Meta user ids, profiles, locales. ARGV: the
 * phone, the owner read, the account taking it ("" for a fresh one: `freshIdLua`), the fresh
 * base, the sender's Meta user id. {account, moved, 0|1 blocked} when taken (from the owner read,
 * or free); {"", owner, its Meta user id or ""} when another owner holds it (nothing written);
 * false when no fresh id was free.
 */
const takeScript = luaScript<
  "phones" | "users" | "blocked" | "counter" | "waUsers" | "profiles" | "locales",
  [string, string, string | number] | null
>(
  "raAccountsTakeHeld",
  ["phones", "users", "blocked", "counter", "waUsers", "profiles", "locales"],
  `${freshIdLua({ counter: 4, waUsers: 5, used: [2, 5, 6, 7], base: 4, waUserId: 5 })}
local phone = ARGV[1]
local now = redis.call('HGET', KEYS[1], phone)
if now and now ~= ARGV[2] then
  return {'', now, redis.call('HGET', KEYS[5], now) or ''}
end
local uid = ARGV[3]
if uid == '' then
  uid = freshId()
  if not uid then return false end
end
${MOVE_PHONE_LUA}
return {uid, moved, redis.call('HEXISTS', KEYS[3], uid)}
`,
);

/** Who takes the number: an account (the chat's own), or a fresh one for a Meta user id. */
export type HeldTaker = number | { base: number; waUserId: string };

export type HeldTake =
  /** `from`: the account it was taken from, null when it was nobody's. */
  | { taken: true; account: number; from: number | null }
  /** Another owner holds it now (`ownerWaUser`: its Meta user id, if any): nothing done. */
  | { taken: false; owner: number; ownerWaUser: string | null };

export interface HeldTaking {
  /**
   * Moves the phone to `to` only while `from` (the owner read) or nobody owns it; a fresh
   * account's id is taken in the same step, and only then. Throws when no fresh id is free.
   */
  takeHeldPhone(phone: Phone, from: number, to: HeldTaker): Promise<HeldTake>;
}

export function redisHeldTaking(opts: {
  redis: RedisClient;
  prefix: string;
  logger?: Logger | undefined;
}): HeldTaking {
  const { redis } = opts;
  const k = keyspace(opts.prefix);
  return {
    async takeHeldPhone(phone, from, to) {
      const fresh = typeof to === "number" ? null : to;
      const r = await takeScript.run(
        redis,
        {
          phones: k.accountPhones,
          users: k.accountUsers,
          blocked: k.accountBlocked,
          counter: `${k.accountWaReleased}:n`,
          waUsers: k.accountWaUsers,
          profiles: k.accountProfiles,
          locales: k.accountLocales,
        },
        phone,
        String(from),
        fresh === null ? String(to) : "",
        String(fresh?.base ?? 0),
        fresh?.waUserId ?? "",
      );
      if (r === null) throw new Error("no free id for a fresh WhatsApp account");
      const [account, moved, third] = r;
      if (account === "") {
        return { taken: false, owner: Number(moved), ownerWaUser: String(third) || null };
      }
      // The access flags follow the registry, as after `register`.
      await flagsAfterRegister(redis, opts.prefix, opts.logger, Number(account), {
        moved,
        blocked: third === 1,
      });
      return { taken: true, account: Number(account), from: moved === "" ? null : Number(moved) };
    },
  };
}

/** The same in memory: one synchronous step. */
export function memoryHeldTaking(m: {
  phones: Map<string, number>;
  waUsers: Map<number, string>;
  pickFresh: (base: number, waUserId: string) => number;
  /** The memory store's `register`, synchronous. */
  registerNow: (userId: number, phone: Phone) => void;
}): HeldTaking {
  return {
    async takeHeldPhone(phone, from, to) {
      const now = m.phones.get(phone);
      if (now !== undefined && now !== from) {
        return { taken: false, owner: now, ownerWaUser: m.waUsers.get(now) ?? null };
      }
      const account = typeof to === "number" ? to : m.pickFresh(to.base, to.waUserId);
      m.registerNow(account, phone);
      return { taken: true, account, from: now ?? null };
    },
  };
}
