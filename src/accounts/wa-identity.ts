import { z } from "zod";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import { storedJson } from "../stored-json.ts";
import { type Phone, phoneSchema } from "./phone.ts";

/**
 * Which WhatsApp user a WhatsApp-born account belongs to (Meta's business-scoped `user_id`, which
 * Meta re-issues when a number changes hands), and what happens when its number writes with
 * another one: the account is frozen for that sender (whatsapp/inbound.ts `ownAccount`), nothing
 * is opened or moved, the admins are alerted and decide (`/waid`: conversations/register/waid.ts).
 * In the accounts' tag beside the phones.
 */

/** A sender with another Meta user id than the account's, waiting for an admin's decision. */
export const waHoldSchema = z.object({
  phone: phoneSchema,
  /** The Meta user id that wrote from the account's number. */
  waUserId: z.string().min(1).max(128),
  at: z.number().int(),
});
export type WaHold = z.infer<typeof waHoldSchema>;

export type WaDecision = "accept" | "release";

/**
 * The short name of a held Meta user id, as the admins' alert shows it and `/waid <phone> accept
 * <id>` gives it back: its last 6 characters (all of a shorter one), lower case.
 */
export const waShortId = (waUserId: string): string => waUserId.slice(-6).toLowerCase();

/** A decision naming another sender than the one held now: nothing was done. */
export interface WaOther {
  other: true;
  account: number;
  /** The short id of the user id held now (`waShortId`). */
  pending: string;
}

/** What a decision did (its log entry, `{accounts}:wadecided`, never trimmed). */
export interface WaDecided {
  account: number;
  phone: Phone;
  /** The Meta user id the account belonged to before ("" when none was recorded). */
  from: string;
  /** The held sender's Meta user id. */
  to: string;
  decision: WaDecision;
  by: number;
  at: number;
}

/**
 * An admin's decision on the account the phone belongs to, in one step. KEYS: phones, users,
 * Meta user ids, holds, decisions log. ARGV: the phone, "accept" / "release", the admin, the time,
 * the short id of the sender decided on ("" for none: `waShortId`). false when the phone has no
 * owner or that owner no hold; {account, "", "", short id held} when the held sender is not the
 * one named (nothing done); else {account, from, to}. accept: the
 * held user id becomes the account's. release: the phone leaves the account (which keeps its
 * money and its user id) and the account is marked released from it (KEYS[6]: its messages no
 * longer go to that number's chat). Either way the hold is gone and the decision is logged.
 */
const decideScript = luaScript<
  "phones" | "users" | "waUsers" | "holds" | "log" | "released",
  [string, string, string, string?] | null
>(
  "raWaDecide",
  ["phones", "users", "waUsers", "holds", "log", "released"],
  `
local phone = ARGV[1]
local acc = redis.call('HGET', KEYS[1], phone)
if not acc then return false end
local raw = redis.call('HGET', KEYS[4], acc)
if not raw then return false end
local to = cjson.decode(raw).waUserId
local short = string.lower(string.sub(to, -6))
if ARGV[5] ~= '' and ARGV[5] ~= short then return {acc, '', '', short} end
local from = redis.call('HGET', KEYS[3], acc) or ''
if ARGV[2] == 'accept' then
  redis.call('HSET', KEYS[3], acc, to)
else
  redis.call('HDEL', KEYS[1], phone)
  if redis.call('HGET', KEYS[2], acc) == phone then redis.call('HDEL', KEYS[2], acc) end
  redis.call('HSET', KEYS[6], acc, phone)
end
redis.call('HDEL', KEYS[4], acc)
redis.call('LPUSH', KEYS[5], '{"account":' .. acc .. ',"phone":' .. cjson.encode(phone) ..
  ',"from":' .. cjson.encode(from) .. ',"to":' .. cjson.encode(to) .. ',"decision":"' ..
  ARGV[2] .. '","by":' .. ARGV[3] .. ',"at":' .. ARGV[4] .. '}')
return {acc, from, to}
`,
);

/**
 * Whether nothing of the account may go to its WhatsApp chat now: a hold waits on it, or an admin
 * released its number from it and the account does not hold that number again (its own user id
 * took it back). KEYS: holds, released, users. ARGV: the account. 1 or 0.
 */
const blockedScript = luaScript<"holds" | "released" | "users", number>(
  "raWaBlocked",
  ["holds", "released", "users"],
  `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 1 end
local gone = redis.call('HGET', KEYS[2], ARGV[1])
if gone and redis.call('HGET', KEYS[3], ARGV[1]) ~= gone then return 1 end
return 0
`,
);

/**
 * A hold on the account, written only while the account still owns the phone (a release on
 * another instance may have come between the sender's read and this write: a hold then would
 * alert the admins on an account without the number, and keep its pushes withheld after its
 * own holder takes the number back). KEYS: holds, users. ARGV: the account, the phone, the hold
 * (JSON), its user id. The hold that stands (the same user id's, with its first time), else
 * this one; false when the account no longer owns the phone (nothing written).
 */
const holdScript = luaScript<"holds" | "users", string | null>(
  "raWaHold",
  ["holds", "users"],
  `
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return false end
local was = redis.call('HGET', KEYS[1], ARGV[1])
if was then
  local ok, d = pcall(cjson.decode, was)
  if ok and type(d) == 'table' and d.waUserId == ARGV[4] then return was end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return ARGV[3]
`,
);

/**
 * A fresh WhatsApp account's id, taken in one step with the counter that names it: `base + n`
 * for the counter's next n, skipping (and counting past) any id an account already uses (a user
 * id, a phone, a profile or a language recorded for it: a counter reset or restored behind would
 * else hand out an id whose money is someone else's), and recorded at once as the Meta user id's
 * (trust on first use, as every WhatsApp-born account). KEYS: counter, Meta user ids, users,
 * profiles, locales. ARGV: base, the Meta user id. The id (digits), false after 1000 taken ids.
 */
const freshScript = luaScript<
  "counter" | "waUsers" | "users" | "profiles" | "locales",
  string | null
>(
  "raWaFresh",
  ["counter", "waUsers", "users", "profiles", "locales"],
  `${freshIdLua({ counter: 1, waUsers: 2, used: [2, 3, 4, 5], base: 1, waUserId: 2 })}
return freshId()
`,
);

/**
 * The Lua of `freshScript`'s step as a local function `freshId()` (the id, false after 1000
 * taken ids), for any script that takes a fresh id in its own step (accounts/take-held.ts): KEYS
 * and ARGV by their places in that script; `used`: Meta user ids, users, profiles, locales.
 */
export function freshIdLua(at: {
  counter: number;
  waUsers: number;
  used: readonly number[];
  base: number;
  waUserId: number;
}): string {
  return `
local function freshId()
  for i = 1, 1000 do
    local id = string.format('%.0f', tonumber(ARGV[${at.base}]) + redis.call('INCR', KEYS[${at.counter}]))
    local used = false
    for _, k in ipairs({${at.used.join(", ")}}) do
      if redis.call('HEXISTS', KEYS[k], id) == 1 then used = true end
    end
    if not used then
      redis.call('HSET', KEYS[${at.waUsers}], id, ARGV[${at.waUserId}])
      return id
    end
  end
  return false
end`;
}

/**
 * The memory store's `freshScript`: skips exactly what Redis skips (a user id, a phone, a
 * profile or a language recorded for the id). Synchronous, so a caller's step stays one step.
 */
export function memoryFreshPicker(m: {
  users: Map<number, Phone>;
  waUsers: Map<number, string>;
  locales: Map<number, string>;
  profileOf: (userId: number) => unknown;
}): (base: number, waUserId: string) => number {
  let n = 0;
  return (base, waUserId) => {
    for (let i = 0; i < 1000; i++) {
      n += 1;
      const id = base + n;
      const used =
        m.waUsers.has(id) || m.users.has(id) || m.locales.has(id) || m.profileOf(id) !== undefined;
      if (used) continue;
      m.waUsers.set(id, waUserId);
      return id;
    }
    throw new Error("no free id for a fresh WhatsApp account");
  };
}

export interface WaIdentity {
  /**
   * The Meta user id (`contacts[].user_id`) a WhatsApp-born account belongs to: the one recorded,
   * else this one, recorded now. Trust on first use: the first user id seen for the account is
   * believed (the one its registration kept in the profile, else the one of the first message
   * carrying one, also for accounts registered before user ids were recorded); a message from
   * its number with another user id is someone else's (whatsapp/inbound.ts).
   */
  adoptWaUser(userId: number, waUserId: string): Promise<string>;
  /** The Meta user id recorded for the account, if any (no adoption). */
  waUserOf(userId: number): Promise<string | null>;
  /**
   * Records that another user id wrote from the account's number (kept until decided). Returns
   * the hold that stands: the one already waiting for the same user id (with its first time),
   * else this one. Its time names the hold: a hold after a decision is a new one (a new alert).
   * null, nothing written, when the account no longer owns the hold's phone (released meanwhile).
   */
  holdWa(userId: number, hold: WaHold): Promise<WaHold | null>;
  /** The hold waiting on the account, if any. */
  waHoldOf(userId: number): Promise<WaHold | null>;
  /**
   * Whether the account's messages are kept from its WhatsApp chat: a hold waits, or its number
   * was released from it (/waid release) and is not its own again (one script).
   */
  waPushBlocked(userId: number): Promise<boolean>;
  /**
   * A new account for `waUserId` (a released number's next holder): `base + n`, n from a counter,
   * never an id an account uses already (`freshScript`: taken in one step, skipped when used),
   * recorded as that user id's. Throws when no free id is found (1000 taken in a row).
   */
  openWaFresh(base: number, waUserId: string): Promise<number>;
  /**
   * An admin's decision on the hold of the phone's account (see `decideScript`); null: none.
   * `id` (a `waShortId`) names the held sender decided on: another one held now is `WaOther`.
   */
  decideWa(
    phone: Phone,
    decision: WaDecision,
    by: number,
    at: number,
    id?: string,
  ): Promise<WaDecided | WaOther | null>;
}

const parseHold = (raw: string | null): WaHold | null => storedJson(waHoldSchema, raw);

export function redisWaIdentity(opts: {
  redis: RedisClient;
  prefix: string;
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
    waUserOf: (userId) => redis.hget(k.accountWaUsers, String(userId)),
    async holdWa(userId, hold) {
      // The first sender's hold stays (with its time) while it waits; another one replaces it.
      const now = waHoldSchema.parse(hold);
      const stands = await holdScript.run(
        redis,
        { holds: k.accountWaHolds, users: k.accountUsers },
        String(userId),
        now.phone,
        JSON.stringify(now),
        now.waUserId,
      );
      return stands === null ? null : (parseHold(stands) ?? now);
    },
    waHoldOf: async (userId) => parseHold(await redis.hget(k.accountWaHolds, String(userId))),
    async waPushBlocked(userId) {
      const keys = {
        holds: k.accountWaHolds,
        released: k.accountWaReleased,
        users: k.accountUsers,
      };
      return (await blockedScript.run(redis, keys, String(userId))) === 1;
    },
    async openWaFresh(base, waUserId) {
      const keys = {
        counter: `${k.accountWaReleased}:n`,
        waUsers: k.accountWaUsers,
        users: k.accountUsers,
        profiles: k.accountProfiles,
        locales: k.accountLocales,
      };
      const id = await freshScript.run(redis, keys, String(base), waUserId);
      if (id === null) throw new Error("no free id for a fresh WhatsApp account");
      return Number(id);
    },
    async decideWa(phone, decision, by, at, id) {
      const r = await decideScript.run(
        redis,
        {
          phones: k.accountPhones,
          users: k.accountUsers,
          waUsers: k.accountWaUsers,
          holds: k.accountWaHolds,
          log: k.accountWaDecided,
          released: k.accountWaReleased,
        },
        phone,
        decision,
        String(Math.trunc(by)),
        String(Math.trunc(at)),
        (id ?? "").toLowerCase(),
      );
      if (r === null) return null;
      const [account, from, to, pending] = r;
      if (pending !== undefined) return { other: true, account: Number(account), pending };
      return { account: Number(account), phone, from, to, decision, by, at };
    },
  };
}

/** The same in memory (local mode without Redis, unit tests). */
export function memoryWaIdentity(m: {
  phones: Map<string, number>;
  users: Map<number, Phone>;
  /** Account -> its Meta user id (the memory store's `ownerAndLocale` reads it too). */
  waUsers: Map<number, string>;
  profileOf: (userId: number) => { waUserId?: string | undefined } | undefined;
  /** The fresh id picker (`memoryFreshPicker`), shared with the store's `takeHeldPhone`. */
  pickFresh: (base: number, waUserId: string) => number;
}): WaIdentity {
  const { waUsers } = m;
  const holds = new Map<number, WaHold>();
  const released = new Map<number, Phone>();
  return {
    async adoptWaUser(userId, waUserId) {
      const kept = waUsers.get(userId) ?? m.profileOf(userId)?.waUserId ?? waUserId;
      waUsers.set(userId, kept);
      return kept;
    },
    waUserOf: async (userId) => waUsers.get(userId) ?? null,
    async holdWa(userId, hold) {
      if (m.users.get(userId) !== hold.phone) return null;
      const was = holds.get(userId);
      if (was?.waUserId === hold.waUserId) return was;
      const now = waHoldSchema.parse(hold);
      holds.set(userId, now);
      return now;
    },
    waHoldOf: async (userId) => holds.get(userId) ?? null,
    async waPushBlocked(userId) {
      const gone = released.get(userId);
      return holds.has(userId) || (gone !== undefined && m.users.get(userId) !== gone);
    },
    openWaFresh: async (base, waUserId) => m.pickFresh(base, waUserId),
    async decideWa(phone, decision, by, at, id) {
      const account = m.phones.get(phone);
      const hold = account === undefined ? undefined : holds.get(account);
      if (account === undefined || hold === undefined) return null;
      const pending = waShortId(hold.waUserId);
      if (id && id.toLowerCase() !== pending) return { other: true, account, pending };
      const from = waUsers.get(account) ?? "";
      if (decision === "accept") waUsers.set(account, hold.waUserId);
      else {
        m.phones.delete(phone);
        if (m.users.get(account) === phone) m.users.delete(account);
        released.set(account, phone);
      }
      holds.delete(account);
      return { account, phone, from, to: hold.waUserId, decision, by, at };
    },
  };
}
