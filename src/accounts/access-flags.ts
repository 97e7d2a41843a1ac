import { randomBytes } from "node:crypto";
import type { Logger } from "../logger.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";

/**
 * What the access check (access.ts) needs of a user, in one short string per user beside the
 * registry's hashes: "registered" then "blocked", each "1", "0" or "?" (unknown), then the writer's
 * nonce. The bot reads it with the early MGET that starts every update (src/bot/create-bot.ts), so
 * the check costs no command of its own.
 *
 * "Registered": a phone now, or a profile kept by a registration (an account whose number its new
 * holder took, conversations/register/link-gate.ts `new`, keeps spending its own balance).
 *
 * The hashes ({accounts}:users and :profiles, {accounts}:blocked) are the record; the flags follow:
 *  - `register` sets "registered" after its hash, and the owner a phone was taken from unknown;
 *  - `block` writes blocked "1" before its record and after it; `unblock` "?" after it, never "0";
 *  - only a blocked "0" is trusted; "1" or "?" is checked against the record (HEXISTS: blocked
 *    users are rare);
 *  - a reader fills an unknown flag from the hashes only if the key is still the value it read
 *    (compare-and-set: every write ends with a fresh nonce, so a value written again differs);
 *    a registration fills blocked only where there was no key (a block writes its key first).
 * Why a fill whose record read missed a block leaves no "0" over it:
 *  1. it read the flag before the block's first write: that write makes its guard fail;
 *  2. it read a "?" between the block's two writes (a racing unblock's): the second write makes
 *     its guard fail, or lands after the fill, "1" over the "0". Left open: that write failing
 *     (logged).
 * "A block holds at once": once `block` returned, every update that starts refuses the user. Every
 * write gives the key a lifetime (FLAGS_SECONDS): an expired key is only unknown again. On a
 * Cluster the key is in the user's own slot, apart from {accounts}: the writes' order is what holds.
 */

export interface AccessFacts {
  registered: boolean;
  blocked: boolean;
}

export interface AccessFactsReader {
  /**
   * The facts for a user. `registered`: whether it is needed (prepaid); when not, it is never
   * read from the hashes (false unless the flag says registered). `early`: the flag key's value as
   * the update's early read saw it (null: no key; absent: not read early, read it now).
   */
  read(userId: number, opts: { registered: boolean; early?: Buffer | null }): Promise<AccessFacts>;
}

/** How long a flag key lives after its last write (an expired one is read from the hashes again). */
export const FLAGS_SECONDS = 7 * 86_400;

type Flag = "0" | "1" | "?";
const flagAt = (raw: string, i: number): Flag => {
  const c = raw.charAt(i);
  return c === "0" || c === "1" ? c : "?";
};

/** The two flags of a stored value (anything but "0"/"1" at a place is unknown). */
export function parseAccessFlags(raw: string | null): { registered: Flag; blocked: Flag } {
  const s = raw ?? "";
  return { registered: flagAt(s, 0), blocked: flagAt(s, 1) };
}

/**
 * Writes the flags of one key. ARGV: registered set, blocked set (a writer's: "0"/"1"/"?", "" to
 * keep), registered fill, blocked fill (a reader's: written only where the flag is unknown, and
 * only when the guard holds), seconds, guard, nonce. The guard: "-" (fill only if there is no key)
 * or "=" and the exact value the filler read (compare-and-set). Every write ends the value with a
 * fresh nonce, so a value read before any write since is never equal to the value now (no A-B-A:
 * an unblock's "?" written again after a whole block is not the "?" a reader saw before it). A fill
 * whose guard fails, with nothing to set, writes nothing.
 */
const writeFlags = luaScript<"flags", number>(
  "raAccessFlags",
  ["flags"],
  `
local cur = redis.call('GET', KEYS[1])
local v = cur or ''
local g = ARGV[6]
local guarded = (g == '-' and not cur) or (cur and string.sub(g, 1, 1) == '=' and string.sub(g, 2) == cur)
if ARGV[1] == '' and ARGV[2] == '' and not guarded then return 0 end
local function known(c) return c == '0' or c == '1' end
local r, b = string.sub(v, 1, 1), string.sub(v, 2, 2)
if ARGV[1] ~= '' then r = ARGV[1] elseif guarded and not known(r) and ARGV[3] ~= '' then r = ARGV[3] end
if ARGV[2] ~= '' then b = ARGV[2] elseif guarded and not known(b) and ARGV[4] ~= '' then b = ARGV[4] end
if not known(r) then r = '?' end
if not known(b) then b = '?' end
redis.call('SET', KEYS[1], r .. b .. ARGV[7], 'EX', ARGV[5])
return 1
`,
);

/** A fresh nonce for a write (8 characters after the two flags; parseAccessFlags ignores them). */
const nonce = (): string => randomBytes(6).toString("base64url");

/** A writer's value for a flag: set, cleared, or made unknown ("?": the next reader fills it). */
export type FlagWrite = boolean | "?";

const bit = (b: FlagWrite | undefined): string =>
  b === undefined ? "" : b === "?" ? "?" : b ? "1" : "0";

let writes = 0;
/**
 * How many flag writes this process made (register, block, unblock): a read made before one of
 * them (the early read of an update that registers its user) is not used after it.
 */
export const accessFlagWrites = (): number => writes;

/**
 * A writer's change (see above for when): the flags given are set whatever they were. `fill`: a
 * blocked flag the writer read from the record (a registration's script), written only where there
 * was no key at all: on a key, a block may have written its "1" and an unblock its "?" since that
 * read, and the next reader fills it with its own compare-and-set.
 */
export async function setAccessFlags(
  redis: RedisClient,
  prefix: string,
  userId: number,
  set: { registered?: FlagWrite; blocked?: FlagWrite },
  fill: { blocked?: boolean } = {},
): Promise<void> {
  try {
    await writeFlags.run(
      redis,
      { flags: keyspace(prefix).accessFlags(userId) },
      bit(set.registered),
      bit(set.blocked),
      "",
      bit(fill.blocked),
      FLAGS_SECONDS,
      "-",
      nonce(),
    );
  } finally {
    writes++;
  }
}

export function redisAccessFacts(opts: { redis: RedisClient; prefix: string }): AccessFactsReader {
  const { redis, prefix } = opts;
  const k = keyspace(prefix);
  return {
    async read(userId, { registered: needRegistered, early }) {
      const key = k.accessFlags(userId);
      const raw = early !== undefined ? early : await redis.getBuffer(key);
      const flags = parseAccessFlags(raw === null ? null : raw.toString("latin1"));
      const readRegistered = needRegistered && flags.registered === "?";
      // Only "not blocked" is trusted: a "1" may be a block's first write whose record failed.
      const readBlocked = flags.blocked !== "0";
      if (!readRegistered && !readBlocked)
        return { registered: flags.registered === "1", blocked: false };
      const field = String(userId);
      const [phone, profile, blockedHere] = await Promise.all([
        readRegistered ? redis.hget(k.accountUsers, field) : undefined,
        readRegistered ? redis.hexists(k.accountProfiles, field) : undefined,
        readBlocked ? redis.hexists(k.accountBlocked, field) : undefined,
      ]);
      const facts = {
        registered: readRegistered ? phone !== null || profile === 1 : flags.registered === "1",
        blocked: readBlocked ? blockedHere === 1 : flags.blocked === "1",
      };
      // Only what is unknown is filled ("1" is known: never filled over).
      const fillBlocked = flags.blocked === "?";
      if (readRegistered || fillBlocked)
        await fill(redis, key, raw, {
          ...(readRegistered ? { registered: facts.registered } : {}),
          ...(fillBlocked ? { blocked: facts.blocked } : {}),
        });
      return facts;
    },
  };
}

/**
 * A reader's fill, only where the flag is still unknown and only if the key is as the reader read
 * it (compare-and-set, the writers' nonces against A-B-A): on no key one `SET NX` (a writer's key,
 * written meanwhile, wins), else the script with the value read. Any write after the reader's read
 * of the flag (a block's "1" before its record, an unblock's "?") makes the fill write nothing, so
 * a "not blocked" read from the record before a block is never written over it. A value without a
 * nonce (two characters: written by the version before, during a rolling upgrade) is never filled:
 * that version writes the same value again (A-B-A), so it is read from the record at every update
 * until a writer of this version writes it or it expires. A failed fill only leaves the flag unknown.
 */
async function fill(
  redis: RedisClient,
  key: string,
  raw: Buffer | null,
  read: { registered?: boolean; blocked?: boolean },
): Promise<void> {
  try {
    if (raw === null) {
      const value = (bit(read.registered) || "?") + (bit(read.blocked) || "?") + nonce();
      await redis.set(key, value, "EX", FLAGS_SECONDS, "NX");
      return;
    }
    if (raw.length <= 2) return;
    await writeFlags.run(
      redis,
      { flags: key },
      "",
      "",
      bit(read.registered),
      bit(read.blocked),
      FLAGS_SECONDS,
      Buffer.concat([Buffer.from("="), raw]),
      nonce(),
    );
  } catch {
    // Unknown it stays: the next check reads the hashes again.
  }
}

/** In memory: the stores themselves, read every time (one process, nothing to keep in step). */
export function memoryAccessFacts(stores: {
  phoneOf(userId: number): Promise<unknown>;
  profileOf?(userId: number): Promise<unknown>;
  isBlocked(userId: number): Promise<boolean>;
}): AccessFactsReader {
  return {
    async read(userId, { registered }) {
      return {
        registered:
          registered &&
          ((await stores.phoneOf(userId)) !== null ||
            ((await stores.profileOf?.(userId)) ?? null) !== null),
        blocked: await stores.isBlocked(userId),
      };
    },
  };
}

/**
 * The access flags' writes after a registration's record (access-flags.ts): this user registered
 * (with the blocked flag the script read, filled only while unknown), the owner the phone was
 * taken from unknown (read from the registry next time: a flag "not registered" written here could
 * land after that owner registered again). A failed write is logged, not thrown (the record is
 * written: the chat goes on); the user's flag is then made unknown if it can be, so a "not
 * registered" read before is not trusted over the record.
 */
export async function flagsAfterRegister(
  redis: RedisClient,
  prefix: string,
  logger: Logger | undefined,
  userId: number,
  r: { moved: string; blocked: boolean },
): Promise<void> {
  const warn = (id: number, err: unknown) =>
    logger?.warn(
      { userId: id, err: String(err) },
      "access flag not written after the registration (the chat reads the registry)",
    );
  await Promise.all([
    setAccessFlags(redis, prefix, userId, { registered: true }, { blocked: r.blocked }).catch(
      async (err: unknown) => {
        warn(userId, err);
        await setAccessFlags(redis, prefix, userId, { registered: "?" }).catch(() => {});
      },
    ),
    r.moved === ""
      ? undefined
      : setAccessFlags(redis, prefix, Number(r.moved), { registered: "?" }).catch((err: unknown) =>
          warn(Number(r.moved), err),
        ),
  ]);
}
