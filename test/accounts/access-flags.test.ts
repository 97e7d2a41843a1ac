import type { Context } from "grammy";
import type { Redis } from "ioredis";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  type AccessFacts,
  createRedisAccounts,
  createRedisBlocked,
  type Phone,
  redisAccessFacts,
  setAccessFlags,
} from "../../src/accounts/index.ts";
import { accessInUpdate, accessOf } from "../../src/bot/access.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { redisPrefetch } from "../../src/bot/prefetch.ts";
import type { Logger } from "../../src/logger.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { testRedis } from "../support/redis.ts";

/**
 * The access flags (src/accounts/access-flags.ts): what the chat's access check needs of a user,
 * read with the update's early MGET, written after the registry's hashes by whoever changes them,
 * and filled from the hashes by a reader only while unknown.
 */

const t = testRedis("access-flags");
afterAll(() => t.cleanup());

let n = 0;
function world() {
  const prefix = `${t.prefix}${++n}:`;
  const other = t.connect();
  return {
    prefix,
    key: (id: number) => keyspace(prefix).accessFlags(id),
    facts: redisAccessFacts({ redis: t.redis, prefix }),
    accounts: createRedisAccounts({ redis: t.redis, prefix }),
    // Another instance: the back office on a connection of its own.
    blocked: createRedisBlocked({ redis: other, prefix }),
    other,
  };
}
const phone = (p: string) => p as Phone;
/** The two flags of a user's key (a write's nonce follows them). */
const flagsOf = async (w: ReturnType<typeof world>, id: number) =>
  (await t.redis.get(w.key(id)))?.slice(0, 2);
const block = (userId: number) => ({ userId, reason: "abuse", by: 9, at: 1 });
const prepaid = { registered: true };

/** Bot deps whose access check reads the flags as the product does, with the update's early read. */
function depsReading(w: ReturnType<typeof world>, verdict: (f: AccessFacts) => string): BotDeps {
  const access = async (userId: number, early?: Buffer | null) =>
    verdict(
      await w.facts.read(userId, { registered: true, ...(early !== undefined ? { early } : {}) }),
    );
  return { payment: { access } } as unknown as BotDeps;
}

describe("access flags", () => {
  it("reads a user from before the flags from the hashes, then from the flags alone", async () => {
    const w = world();
    await t.redis.hset(keyspace(w.prefix).accountUsers, "41", "9800000041");
    expect(await w.facts.read(41, prepaid)).toEqual({ registered: true, blocked: false });
    expect(await flagsOf(w, 41)).toBe("10");
    expect(await t.redis.ttl(w.key(41))).toBeGreaterThan(86_400);
    const hget = vi.spyOn(t.redis, "hget");
    const hexists = vi.spyOn(t.redis, "hexists");
    try {
      const early = await t.redis.getBuffer(w.key(41));
      expect(await w.facts.read(41, { ...prepaid, early })).toEqual({
        registered: true,
        blocked: false,
      });
      expect(hget).not.toHaveBeenCalled();
      expect(hexists).not.toHaveBeenCalled();
    } finally {
      hget.mockRestore();
      hexists.mockRestore();
    }
  });

  it("registering sets the flag; the owner a phone is taken from is no longer registered", async () => {
    const w = world();
    await w.accounts.register(51, phone("9800000051"));
    expect(await flagsOf(w, 51)).toBe("10");
    await w.accounts.register(52, phone("9800000051"));
    // Unknown, not "not registered": 51 may be registering again meanwhile (the registry tells).
    expect(await flagsOf(w, 51)).toBe("?0");
    expect(await w.facts.read(51, prepaid)).toEqual({ registered: false, blocked: false });
    expect(await w.facts.read(52, prepaid)).toEqual({ registered: true, blocked: false });
    // A blocked user who registers stays blocked (the script's read fills the flag).
    await w.blocked.block(block(53));
    await w.accounts.register(53, phone("9800000053"));
    expect(await flagsOf(w, 53)).toBe("11");
    // With no key at all (expired, or deleted by the upgrade's clean-up), the blocked flag comes
    // from the record the registration's script read: the only place it is still used.
    await w.blocked.block(block(54));
    await t.redis.del(w.key(54));
    await w.accounts.register(54, phone("9800000054"));
    expect(await flagsOf(w, 54)).toBe("11");
    const early = await t.redis.getBuffer(w.key(54));
    expect(await w.facts.read(54, { ...prepaid, early })).toEqual({
      registered: true,
      blocked: true,
    });
  });

  it("a block holds at once for every read after it, and an unblock too", async () => {
    const w = world();
    await w.accounts.register(61, phone("9800000061"));
    expect(await w.facts.read(61, prepaid)).toEqual({ registered: true, blocked: false });
    await w.blocked.block(block(61));
    expect(await w.facts.read(61, prepaid)).toEqual({ registered: true, blocked: true });
    expect((await w.facts.read(61, { registered: false })).blocked).toBe(true);
    await w.blocked.unblock(61);
    expect(await w.facts.read(61, prepaid)).toEqual({ registered: true, blocked: false });
    // Expired (or never written): read from the hashes again, which hold the record.
    await w.blocked.block(block(61));
    await t.redis.del(w.key(61));
    expect(await w.facts.read(61, prepaid)).toEqual({ registered: true, blocked: true });
  });

  // The reader read "not blocked" from the hash; the block (hash, then flag) lands before the
  // reader's fill. The fill must not write "not blocked" over the block's flag.
  it.each([
    ["no key yet (SET NX)", false],
    ["a key with the blocked flag unknown (the script)", true],
  ])("a fill never undoes a block written after its read: %s", async (_name, partial) => {
    const w = world();
    const id = partial ? 72 : 71;
    // A value as this version writes it: the two flags, then a writer's nonce.
    if (partial) await t.redis.set(w.key(id), "1?nonce_01");
    else await t.redis.hset(keyspace(w.prefix).accountUsers, String(id), "9800000071");
    const hexists = t.redis.hexists.bind(t.redis);
    const spy = vi.spyOn(t.redis, "hexists").mockImplementation((async (
      ...args: Parameters<Redis["hexists"]>
    ) => {
      const seen = await hexists(...args);
      await w.blocked.block(block(id));
      return seen;
    }) as unknown as Redis["hexists"]);
    try {
      expect(await w.facts.read(id, prepaid)).toEqual({ registered: true, blocked: false });
    } finally {
      spy.mockRestore();
    }
    expect(await w.facts.read(id, prepaid)).toEqual({ registered: true, blocked: true });
  });
});

/** The access-flags script's calls on `client` (defined on it by a first run), spied. */
async function spyFlagWrites(
  client: Redis,
  prefix: string,
  around: (call: () => Promise<unknown>, key: string) => Promise<unknown>,
) {
  // Defines the script on this connection (scripts.ts defines it at a connection's first use).
  await createRedisBlocked({ redis: client, prefix: `${prefix}warmup:` }).unblock(1);
  const named = client as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const original = named.raAccessFlags!.bind(client);
  return vi
    .spyOn(named, "raAccessFlags")
    .mockImplementation((...args: unknown[]) => around(() => original(...args), String(args[0])));
}

describe("blocks whose flag writes fail or race", () => {
  it("a block whose flag write after the record fails is still refused on the next update", async () => {
    const w = world();
    const warn = vi.fn();
    const backOffice = createRedisBlocked({
      redis: w.other,
      prefix: w.prefix,
      logger: { warn } as unknown as Logger,
    });
    await w.accounts.register(91, phone("9800000091"));
    // Known not blocked, as every active user's flag is.
    expect(await w.facts.read(91, prepaid)).toEqual({ registered: true, blocked: false });
    const recorded = () => t.redis.hexists(keyspace(w.prefix).accountBlocked, "91");
    const spy = await spyFlagWrites(w.other, w.prefix, async (call, key) => {
      // The write that comes after the record fails (a timeout, a dying process, a failover).
      if (key === w.key(91) && (await recorded()) === 1) throw new Error("connection lost");
      return call();
    });
    let outcome: unknown;
    try {
      outcome = await backOffice.block(block(91)).then(
        () => "blocked",
        (err: unknown) => err,
      );
    } finally {
      spy.mockRestore();
    }
    const early = await t.redis.getBuffer(w.key(91));
    expect((await w.facts.read(91, { ...prepaid, early })).blocked).toBe(true);
    // The record is written: the admin is told so (and the audit log written), the failure logged.
    expect(outcome).toBe("blocked");
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("an unblock whose flag write lands after a racing block's ends refused", async () => {
    // Two admins: the unblock's HDEL, then the whole block (flag, record, flag), then the
    // unblock's flag write.
    const w = world();
    const third = createRedisBlocked({ redis: t.connect(), prefix: w.prefix });
    await w.accounts.register(92, phone("9800000092"));
    await w.blocked.block(block(92));
    let raced = false;
    const spy = await spyFlagWrites(w.other, w.prefix, async (call, key) => {
      if (key === w.key(92) && !raced) {
        raced = true;
        await third.block(block(92));
      }
      return call();
    });
    try {
      await w.blocked.unblock(92);
    } finally {
      spy.mockRestore();
    }
    expect(raced).toBe(true);
    expect(await w.blocked.isBlocked(92)).toBe(true);
    for (let i = 0; i < 2; i++) {
      const early = await t.redis.getBuffer(w.key(92));
      expect((await w.facts.read(92, { ...prepaid, early })).blocked).toBe(true);
    }
  });

  // Two admins: an unblock (its HDEL, then its flag write, delayed), a whole block between the
  // two, and a reader that read the flag and the record before the block and fills after it all.
  it("a fill that read before a block does not write over it, even with an unblock's unknown written again since", async () => {
    const w = world();
    const third = createRedisBlocked({ redis: t.connect(), prefix: w.prefix });
    await w.accounts.register(94, phone("9800000094"));
    await w.blocked.block(block(94));
    await w.blocked.unblock(94);
    expect(await flagsOf(w, 94)).toBe("1?");
    const early = await t.redis.getBuffer(w.key(94));
    const hexists = t.redis.hexists.bind(t.redis);
    let raced = 0;
    const spy = vi.spyOn(t.redis, "hexists").mockImplementation((async (
      ...args: Parameters<Redis["hexists"]>
    ) => {
      const seen = await hexists(...args);
      raced++;
      await third.block(block(94));
      // The second unblock's flag write (its HDEL came before the block's record: a no-op).
      await setAccessFlags(w.other, w.prefix, 94, { blocked: "?" });
      return seen;
    }) as unknown as Redis["hexists"]);
    try {
      expect(await w.facts.read(94, { ...prepaid, early })).toEqual({
        registered: true,
        blocked: false,
      });
    } finally {
      spy.mockRestore();
    }
    expect(raced).toBe(1);
    expect(await w.blocked.isBlocked(94)).toBe(true);
    expect(await flagsOf(w, 94)).toBe("1?");
    const next = await t.redis.getBuffer(w.key(94));
    expect((await w.facts.read(94, { ...prepaid, early: next })).blocked).toBe(true);
  });

  // A rolling upgrade (review s29): the version before writes the two flags alone, no nonce, so
  // its unblock's "?" written again after its whole block is the very value a reader here read.
  it("a value written by the version before (no nonce) is never filled: a block by it holds", async () => {
    const w = world();
    const ks = keyspace(w.prefix);
    await t.redis.hset(ks.accountUsers, "97", "9800000097");
    // The version before's unblock: its HDEL, then its flag write.
    await w.other.set(w.key(97), "1?");
    const early = await t.redis.getBuffer(w.key(97));
    const hexists = t.redis.hexists.bind(t.redis);
    let raced = 0;
    const spy = vi.spyOn(t.redis, "hexists").mockImplementation((async (
      ...args: Parameters<Redis["hexists"]>
    ) => {
      const seen = await hexists(...args);
      raced++;
      // The version before's block (flag, record, flag), then a second unblock's late flag write.
      await w.other.set(w.key(97), "11");
      await w.other.hset(ks.accountBlocked, "97", JSON.stringify(block(97)));
      await w.other.set(w.key(97), "11");
      await w.other.set(w.key(97), "1?");
      return seen;
    }) as unknown as Redis["hexists"]);
    try {
      expect(await w.facts.read(97, { ...prepaid, early })).toEqual({
        registered: true,
        blocked: false,
      });
    } finally {
      spy.mockRestore();
    }
    expect(raced).toBe(1);
    expect(await t.redis.get(w.key(97))).toBe("1?");
    const next = await t.redis.getBuffer(w.key(97));
    expect((await w.facts.read(97, { ...prepaid, early: next })).blocked).toBe(true);
  });

  it("a registration's blocked flag, read by its script before a block, is not written over it", async () => {
    const w = world();
    const client = t.connect();
    const accounts = createRedisAccounts({ redis: client, prefix: w.prefix });
    const third = createRedisBlocked({ redis: t.connect(), prefix: w.prefix });
    await w.blocked.block(block(96));
    await w.blocked.unblock(96);
    let raced = false;
    const spy = await spyFlagWrites(client, w.prefix, async (call, key) => {
      // The registration's script has read "not blocked"; before its flag write, a whole block and
      // a racing unblock's delayed flag write.
      if (key === w.key(96) && !raced) {
        raced = true;
        await third.block(block(96));
        await setAccessFlags(w.other, w.prefix, 96, { blocked: "?" });
      }
      return call();
    });
    try {
      await accounts.register(96, phone("9800000096"));
    } finally {
      spy.mockRestore();
    }
    expect(raced).toBe(true);
    expect(await flagsOf(w, 96)).toBe("1?");
    const early = await t.redis.getBuffer(w.key(96));
    expect(await w.facts.read(96, { ...prepaid, early })).toEqual({
      registered: true,
      blocked: true,
    });
  });

  it("a blocked flag without a record (the record's write failed) reads the record, and is kept", async () => {
    const w = world();
    await w.accounts.register(93, phone("9800000093"));
    await t.redis.set(w.key(93), "11");
    expect(await w.facts.read(93, prepaid)).toEqual({ registered: true, blocked: false });
    expect(await flagsOf(w, 93)).toBe("11");
    // Unblocked: unknown, filled "not blocked" by the next read, then trusted.
    await w.blocked.unblock(93);
    expect(await flagsOf(w, 93)).toBe("1?");
    expect(await w.facts.read(93, prepaid)).toEqual({ registered: true, blocked: false });
    expect(await flagsOf(w, 93)).toBe("10");
  });
});

describe("a registration whose flag write fails", () => {
  it("is not an error: logged, the user's flag made unknown, the next read finds them registered", async () => {
    const w = world();
    const client = t.connect();
    const warn = vi.fn();
    const accounts = createRedisAccounts({
      redis: client,
      prefix: w.prefix,
      logger: { warn } as unknown as Logger,
    });
    // Read before (not registered, filled so): the flag says "not registered".
    expect(await w.facts.read(95, prepaid)).toEqual({ registered: false, blocked: false });
    expect(await flagsOf(w, 95)).toBe("00");
    let failed = 0;
    const spy = await spyFlagWrites(client, w.prefix, async (call, key) => {
      if (key === w.key(95) && failed++ === 0) throw new Error("timeout");
      return call();
    });
    try {
      await accounts.register(95, phone("9800000095"));
    } finally {
      spy.mockRestore();
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(await flagsOf(w, 95)).toBe("?0");
    const early = await t.redis.getBuffer(w.key(95));
    expect(await w.facts.read(95, { ...prepaid, early })).toEqual({
      registered: true,
      blocked: false,
    });
  });
});

describe("the access check in one update", () => {
  it("takes the flags from the update's early read and gives one verdict for the update", async () => {
    const w = world();
    await w.accounts.register(81, phone("9800000081"));
    const access = vi.fn(async (userId: number, early?: Buffer | null) => {
      const facts = await w.facts.read(userId, {
        registered: true,
        ...(early !== undefined ? { early } : {}),
      });
      return facts.blocked
        ? ("blocked" as const)
        : facts.registered
          ? ("ok" as const)
          : ("register" as const);
    });
    const deps = { payment: { access } } as unknown as BotDeps;
    const prefetch = redisPrefetch(t.redis);
    const ctx = { update: { update_id: 8101 } } as Context;
    const seen: string[] = [];
    const get = vi.spyOn(t.redis, "getBuffer");
    try {
      await prefetch.middleware(() => [w.key(81)])(ctx, async () => {
        await accessInUpdate<Context>((c, id) => prefetch.peek(c.update.update_id, w.key(id)))(
          ctx,
          async () => {
            // Blocked by another instance after the update's read (its hash, then its flag):
            // this update keeps what it read as it started.
            await w.other.hset(keyspace(w.prefix).accountBlocked, "81", JSON.stringify(block(81)));
            await w.other.set(w.key(81), "11");
            seen.push(await accessOf(deps, 81), await accessOf(deps, 81));
          },
        );
      });
      expect(get).not.toHaveBeenCalled();
    } finally {
      get.mockRestore();
    }
    expect(seen).toEqual(["ok", "ok"]);
    expect(access).toHaveBeenCalledTimes(1);
    expect(access.mock.calls[0]?.[1]?.toString().slice(0, 2)).toBe("10");
    // The next update reads the block.
    expect(await accessOf(deps, 81)).toBe("blocked");
  });

  it("an update that registers its user checks afresh after it (the early read said not registered)", async () => {
    const w = world();
    expect(await w.facts.read(83, prepaid)).toEqual({ registered: false, blocked: false });
    const deps = depsReading(w, (f) => (f.registered ? "ok" : "register"));
    const prefetch = redisPrefetch(t.redis);
    const ctx = { update: { update_id: 8301 } } as Context;
    const seen: string[] = [];
    await prefetch.middleware(() => [w.key(83)])(ctx, async () => {
      await accessInUpdate<Context>((c, id) => prefetch.peek(c.update.update_id, w.key(id)))(
        ctx,
        async () => {
          seen.push(await accessOf(deps, 83));
          await w.accounts.register(83, phone("9800000083"));
          seen.push(await accessOf(deps, 83));
        },
      );
    });
    expect(seen).toEqual(["register", "ok"]);
  });

  it("a check made after the update finished (work it left running) reads afresh", async () => {
    const w = world();
    await w.accounts.register(84, phone("9800000084"));
    const deps = depsReading(w, (f) => (f.blocked ? "blocked" : "ok"));
    const prefetch = redisPrefetch(t.redis);
    const ctx = { update: { update_id: 8401 } } as Context;
    let go!: () => void;
    const later = new Promise<void>((resolve) => {
      go = resolve;
    });
    let left!: Promise<string>;
    await prefetch.middleware(() => [w.key(84)])(ctx, async () => {
      await accessInUpdate<Context>((c, id) => prefetch.peek(c.update.update_id, w.key(id)))(
        ctx,
        async () => {
          expect(await accessOf(deps, 84)).toBe("ok");
          left = later.then(() => accessOf(deps, 84));
        },
      );
    });
    // Blocked by another instance (its record, its flag: no flag write of this process).
    await w.other.hset(keyspace(w.prefix).accountBlocked, "84", JSON.stringify(block(84)));
    await w.other.set(w.key(84), "11");
    go();
    expect(await left).toBe("blocked");
  });

  it("reads the flags afresh when the update's early read went stale (its turn waited)", async () => {
    const w = world();
    await w.accounts.register(82, phone("9800000082"));
    const prefetch = redisPrefetch(t.redis);
    const ctx = { update: { update_id: 8201 } } as Context;
    let peeked: Buffer | null | undefined = Buffer.from("x");
    await prefetch.middleware(() => [w.key(82)])(ctx, async () => {
      prefetch.stale(8201);
      peeked = await prefetch.peek(8201, w.key(82));
    });
    expect(peeked).toBeUndefined();
  });
});
