import { z } from "zod";
import { accountIdSchema } from "../ledger/index.ts";
import type { Logger } from "../logger.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import { storedJson } from "../stored-json.ts";
import { flagsAfterRegister } from "./access-flags.ts";
import { type Phone, phoneSchema } from "./phone.ts";
import { type HeldTaking, MOVE_PHONE_LUA, memoryHeldTaking, redisHeldTaking } from "./take-held.ts";
import {
  memoryFreshPicker,
  memoryWaIdentity,
  redisWaIdentity,
  type WaIdentity,
} from "./wa-identity.ts";

/**
 * Who is who beside the books: the phone number each registered customer shared (their identity
 * that agents type), and the receipt of every cash-in, agent credit and reversal (who did it, for
 * whom, how much), by its ledger transfer id, and the language each user's pushes go in. The money
 * itself is only in the ledger; a receipt is what /reverse and /balance read to name the people of
 * a transfer.
 */

const receiptSchema = z.object({
  /** The ledger transfer id (the idempotency key fixed before the confirm step). */
  id: z.string().min(1).max(128),
  kind: z.enum(["cash_in", "credit", "reversal", "demo_credit", "move"]),
  debit: accountIdSchema,
  credit: accountIdSchema,
  amountPaisa: z.number().int().positive(),
  /** The Telegram user who did it (agent or admin); 0 for the playground's demo credit. */
  by: z.number().int(),
  /** The customer or agent credited (or debited, for a reversal; credited, for a move). */
  partyUserId: z.number().int().optional(),
  /** For a reversal: the transfer it reverses, and why. */
  reverses: z.string().optional(),
  reason: z.string().max(500).optional(),
  at: z.number().int(),
  /**
   * Rebuilt from the books' entry: the receipt write was lost after the booking (accounts
   * service `receiptOf`), so who booked a credit or a reversal is not known (`by` is 0).
   */
  rebuilt: z.literal(true).optional(),
});
export type Receipt = z.infer<typeof receiptSchema>;

/**
 * Who registered, as the back office shows them (issue 29): the name and username Telegram gave
 * when they shared their contact, and when they first and last shared one. Absent for people who
 * registered before it was kept.
 */
export const profileSchema = z.object({
  name: z.string().max(200),
  username: z.string().max(64).optional(),
  /** The channel they registered on: Telegram (a shared contact) or WhatsApp (the sender's number). */
  channel: z.enum(["telegram", "whatsapp"]),
  /** WhatsApp's business-scoped user id, kept beside the phone: the first one seen stays. */
  waUserId: z.string().max(128).optional(),
  firstAt: z.number().int(),
  at: z.number().int(),
});
export type Profile = z.infer<typeof profileSchema>;
export type ProfileInput = Pick<Profile, "name" | "username" | "channel" | "waUserId">;

const keepFirst = (old: Profile | null, p: ProfileInput, at: number): Profile =>
  profileSchema.parse({
    name: p.name.slice(0, 200),
    ...(p.username ? { username: p.username.slice(0, 64) } : {}),
    channel: p.channel,
    // The first one stays (trust on first use: adoptWaUser reads it for an account without one).
    ...(old?.waUserId || p.waUserId
      ? { waUserId: old?.waUserId ?? p.waUserId?.slice(0, 128) }
      : {}),
    firstAt: old?.firstAt ?? at,
    at,
  });

/** A chat language as the bot names it ("en", "ne", "hi"); the bot checks it is one of its own. */
const localeSchema = z.string().min(2).max(16);

export interface AccountsStore extends WaIdentity, HeldTaking {
  /**
   * Binds the phone to the user. Telegram vouches that a contact shared with the user's own id is
   * theirs, so the latest sharer of a number owns it: a recycled number moves to its new owner,
   * and a user who shares a new number leaves the old one.
   */
  register(userId: number, phone: Phone): Promise<void>;
  /**
   * `register`, only while nobody else owns the phone (WhatsApp's registration on arrival: a
   * Telegram user may have registered it since the owner was read). Null when registered, else the
   * owner who keeps it.
   */
  claimPhone(userId: number, phone: Phone): Promise<number | null>;
  userByPhone(phone: Phone): Promise<number | null>;
  phoneOf(userId: number): Promise<Phone | null>;
  /**
   * The language pushes to the user go in when someone else's action sends them (a cash-in's
   * receipt, an agent's credit, a reversal): kept at registration (their chosen language, else
   * Telegram's) and whenever they choose one with /language. The latest wins.
   */
  setLocale(userId: number, locale: string): Promise<void>;
  localeOf(userId: number): Promise<string | null>;
  /**
   * The phone's owner (userByPhone) and the language of the owner, else of `orUserId` (localeOf),
   * in one round trip: who writes on WhatsApp and in which language to answer.
   */
  ownerAndLocale(
    phone: Phone,
    orUserId: number,
  ): Promise<{ owner: number | null; locale: string | null; waUserId: string | null }>;
  /** Keeps the first receipt of an id (a replay writes nothing new). */
  putReceipt(r: Receipt): Promise<void>;
  receipt(id: string): Promise<Receipt | null>;
  /**
   * True the first time it is asked for (transfer id, side), false ever after: who says "done" or
   * "Rs N was added" for a transfer. A Confirm handled again (an instance died after telling, and
   * Telegram sent the update to another) finds it said and stays quiet.
   */
  firstNotice(id: string, side: string): Promise<boolean>;
  /** Keeps who shared their contact at `at` (the first time stays; the rest is the latest). */
  putProfile(userId: number, p: ProfileInput, at: number): Promise<void>;
  profileOf(userId: number): Promise<Profile | null>;
  /** Who has a profile, newest first registration first: `limit` of them after skipping `offset`. */
  joined(offset: number, limit: number): Promise<number[]>;
  /**
   * Records the agent whose shop QR code brought the customer (issue 30): true the first time,
   * false when a shop is recorded already (the first one stays).
   */
  claimShop(userId: number, agentId: number): Promise<boolean>;
  /** The agent whose shop brought the customer, if any. */
  shopOf(userId: number): Promise<number | null>;
}

export function createMemoryAccounts(): AccountsStore {
  const phones = new Map<string, number>();
  const users = new Map<number, Phone>();
  const receipts = new Map<string, Receipt>();
  const told = new Set<string>();
  const locales = new Map<number, string>();
  const profiles = new Map<number, Profile>();
  const shops = new Map<number, number>();
  const waUsers = new Map<number, string>();
  const profileOf = (id: number) => profiles.get(id);
  const pickFresh = memoryFreshPicker({ users, waUsers, locales, profileOf });
  const registerNow = (userId: number, phone: Phone) => {
    const old = users.get(userId);
    if (old !== undefined && old !== phone && phones.get(old) === userId) phones.delete(old);
    const owner = phones.get(phone);
    if (owner !== undefined && owner !== userId) users.delete(owner);
    phones.set(phone, userId);
    users.set(userId, phone);
  };
  return {
    ...memoryWaIdentity({ phones, users, waUsers, profileOf, pickFresh }),
    ...memoryHeldTaking({ phones, waUsers, pickFresh, registerNow }),
    async claimShop(userId, agentId) {
      if (shops.has(userId)) return false;
      shops.set(userId, agentId);
      return true;
    },
    async shopOf(userId) {
      return shops.get(userId) ?? null;
    },
    async putProfile(userId, p, at) {
      profiles.set(userId, keepFirst(profiles.get(userId) ?? null, p, at));
    },
    async profileOf(userId) {
      return profiles.get(userId) ?? null;
    },
    async joined(offset, limit) {
      return [...profiles]
        .sort(([a, p], [b, q]) => q.firstAt - p.firstAt || b - a)
        .slice(offset, offset + limit)
        .map(([id]) => id);
    },
    async register(userId, phone) {
      registerNow(userId, phone);
    },
    async claimPhone(userId, phone) {
      const owner = phones.get(phone);
      if (owner !== undefined && owner !== userId) return owner;
      await this.register(userId, phone);
      return null;
    },
    async userByPhone(phone) {
      return phones.get(phone) ?? null;
    },
    async phoneOf(userId) {
      return users.get(userId) ?? null;
    },
    async setLocale(userId, locale) {
      locales.set(userId, localeSchema.parse(locale));
    },
    async localeOf(userId) {
      return locales.get(userId) ?? null;
    },
    async ownerAndLocale(phone, orUserId) {
      const owner = phones.get(phone) ?? null;
      const waUserId = owner === null ? null : (waUsers.get(owner) ?? null);
      return { owner, locale: locales.get(owner ?? orUserId) ?? null, waUserId };
    },
    async putReceipt(r) {
      if (!receipts.has(r.id)) receipts.set(r.id, receiptSchema.parse(r));
    },
    async firstNotice(id, side) {
      const key = `${id}:${side}`;
      if (told.has(key)) return false;
      told.add(key);
      return true;
    },
    async receipt(id) {
      return receipts.get(id) ?? null;
    },
  };
}

/**
 * KEYS: phones, locales, Meta user ids (one slot: {accounts}). ARGV: the phone, the user whose
 * language to read when nobody owns it. {owner, locale, owner's Meta user id}, false (a nil
 * reply) for none.
 */
const ownerAndLocaleScript = luaScript<
  "phones" | "locales" | "waUsers",
  [string | null, string | null, string | null]
>(
  "raOwnerAndLocale2",
  ["phones", "locales", "waUsers"],
  `
local owner = redis.call('HGET', KEYS[1], ARGV[1])
local wau = false
if owner then wau = redis.call('HGET', KEYS[3], owner) end
return {owner, redis.call('HGET', KEYS[2], owner or ARGV[2]), wau}
`,
);

/**
 * The rebinding of `register` in one step. KEYS: phones, users, blocked. ARGV: user id, phone,
 * "1" to register only if nobody else owns the phone (`claimPhone`). Returns the owner the phone
 * was taken from ("" if none) and whether the user is blocked, for the access flags written after
 * it (access-flags.ts); with "1" and another owner: that owner and -1, nothing written.
 */
const registerScript = luaScript<"phones" | "users" | "blocked", [string, number]>(
  "raAccountsRegister",
  ["phones", "users", "blocked"],
  `
local uid, phone = ARGV[1], ARGV[2]
if ARGV[3] == '1' then
  local held = redis.call('HGET', KEYS[1], phone)
  if held and held ~= uid then return {held, -1} end
end
${MOVE_PHONE_LUA}
return {moved, redis.call('HEXISTS', KEYS[3], uid)}
`,
);

/** Profiles kept before the index existed join it once (the index is short of the profiles). */
async function indexOlderProfiles(redis: RedisClient, k: ReturnType<typeof keyspace>) {
  const [indexed, kept] = await Promise.all([
    redis.zcard(k.accountJoined),
    redis.hlen(k.accountProfiles),
  ]);
  if (indexed >= kept) return;
  let cursor = "0";
  do {
    const [next, flat] = await redis.hscan(k.accountProfiles, cursor, "COUNT", 500);
    cursor = next;
    const args: (string | number)[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const p = profileSchema.safeParse(safeJson(flat[i + 1] ?? ""));
      if (p.success) args.push(p.data.firstAt, flat[i] ?? "");
    }
    if (args.length > 0) await redis.zadd(k.accountJoined, "NX", ...args);
  } while (cursor !== "0");
}

const safeJson = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
};

export function createRedisAccounts(opts: {
  redis: RedisClient;
  prefix: string;
  logger?: Logger | undefined;
}): AccountsStore {
  const { redis } = opts;
  const k = keyspace(opts.prefix);
  const profileOf = async (userId: number): Promise<Profile | null> =>
    storedJson(profileSchema, await redis.hget(k.accountProfiles, String(userId)));
  const registerVia = async (userId: number, phone: Phone, ifFree: boolean) => {
    const [moved, blocked] = await registerScript.run(
      redis,
      { phones: k.accountPhones, users: k.accountUsers, blocked: k.accountBlocked },
      String(userId),
      phone,
      ifFree ? "1" : "0",
    );
    if (blocked === -1) return Number(moved);
    await flagsAfterRegister(redis, opts.prefix, opts.logger, userId, {
      moved,
      blocked: blocked === 1,
    });
    return null;
  };
  return {
    // Read, then written: two shares of one user at once could only disagree on `firstAt` by ms.
    // The index by first registration in the same MULTI (one tag): NX keeps the first time.
    async putProfile(userId, p, at) {
      const next = keepFirst(await profileOf(userId), p, at);
      await redis
        .multi()
        .hset(k.accountProfiles, String(userId), JSON.stringify(next))
        .zadd(k.accountJoined, "NX", next.firstAt, String(userId))
        .exec();
    },
    profileOf,
    async claimShop(userId, agentId) {
      return (await redis.hsetnx(k.accountShops, String(userId), String(agentId))) === 1;
    },
    async shopOf(userId) {
      const id = await redis.hget(k.accountShops, String(userId));
      return id === null ? null : Number(id);
    },
    async joined(offset, limit) {
      await indexOlderProfiles(redis, k);
      const ids = await redis.zrevrange(k.accountJoined, offset, offset + limit - 1);
      return ids.map(Number);
    },
    // The access flags follow the registry (flagsAfterRegister).
    async register(userId, phone) {
      await registerVia(userId, phone, false);
    },
    async claimPhone(userId, phone) {
      return registerVia(userId, phone, true);
    },
    async userByPhone(phone) {
      const id = await redis.hget(k.accountPhones, phone);
      return id === null ? null : Number(id);
    },
    async phoneOf(userId) {
      const p = await redis.hget(k.accountUsers, String(userId));
      return p === null ? null : phoneSchema.parse(p);
    },
    async setLocale(userId, locale) {
      await redis.hset(k.accountLocales, String(userId), localeSchema.parse(locale));
    },
    async localeOf(userId) {
      return redis.hget(k.accountLocales, String(userId));
    },
    async ownerAndLocale(phone, orUserId) {
      const [owner, locale, waUserId] = await ownerAndLocaleScript.run(
        redis,
        { phones: k.accountPhones, locales: k.accountLocales, waUsers: k.accountWaUsers },
        phone,
        String(orUserId),
      );
      return { owner: owner === null ? null : Number(owner), locale, waUserId: waUserId ?? null };
    },
    ...redisWaIdentity({ ...opts, profileOf }),
    ...redisHeldTaking(opts),
    async putReceipt(r) {
      await redis.hsetnx(k.accountReceipts, r.id, JSON.stringify(receiptSchema.parse(r)));
    },
    async firstNotice(id, side) {
      return (await redis.hsetnx(k.accountNotices, `${id}:${side}`, "1")) === 1;
    },
    async receipt(id) {
      const raw = await redis.hget(k.accountReceipts, id);
      return raw === null ? null : receiptSchema.parse(JSON.parse(raw));
    },
  };
}
