import { type LedgerKey, ledgerKeys } from "../ledger/lua.ts";
import type { RedisClient } from "../redis/connection.ts";
import { type Keyspace, keyspace } from "../redis/keyspace.ts";
import type { Order } from "./model.ts";
import { holdWritesForTurn } from "./redis-batch.ts";
import { parseOrder } from "./redis-codec.ts";
import { SEED_AHEAD_MS } from "./redis-scripts.ts";

/** What the Redis order store's parts (create, update, reads) share: the keys, the reads, the clock. */
export interface RedisOrderEnv {
  redis: RedisClient;
  k: Keyspace;
  ledger: Record<LedgerKey, string>;
  /** The owed set of the hourly window named (owed.ts owedWindows), in the money slot. */
  owedSet: (name: string) => string;
  now: () => number;
  /** The hot pair (read the order, compare-and-set it) leaves with the turn's other commands. */
  hold: () => void;
  /** By our reference or by an alias (the execute reference). */
  load(reference: string): Promise<Order | null>;
  loadMany(references: string[]): Promise<Order[]>;
  /**
   * What a missing reference counter starts from: the counter as it was (outside the money slot,
   * which the version before still writes while it runs) or the clock, whichever is later, plus a
   * day (SEED_AHEAD_MS), so the numbers of both never meet while both run.
   */
  seedOf(): Promise<string>;
  /**
   * The seed a numbering's first pass carries: seedOf's until this process numbered once (then
   * '': the counter is there, and a counter lost since asks for one, a second pass). The script
   * uses a seed only where the counter is absent, so carrying it changes no number; it spares a
   * process's first orders on a counter not there yet (a fresh Redis) the pass that finds it
   * absent, at one GET of the old key on each process's first numbering.
   */
  firstSeed(): Promise<string>;
  /** A numbering succeeded: the counter exists. */
  numbered(): void;
}

export function createRedisOrderEnv(opts: {
  redis: RedisClient;
  prefix: string;
  now?: (() => number) | undefined;
}): RedisOrderEnv {
  const { redis } = opts;
  const now = opts.now ?? Date.now;
  const k = keyspace(opts.prefix);
  const hold = holdWritesForTurn(redis);

  const load = async (reference: string): Promise<Order | null> => {
    hold();
    const json = await redis.hget(k.order(reference), "j");
    if (json !== null) return parseOrder(json);
    const main = await redis.get(k.alias(reference));
    if (main === null) return null;
    const aliased = await redis.hget(k.order(main), "j");
    return aliased === null ? null : parseOrder(aliased);
  };

  const loadMany = async (references: string[]): Promise<Order[]> => {
    if (references.length === 0) return [];
    const pipe = redis.pipeline();
    for (const ref of references) pipe.hget(k.order(ref), "j");
    const replies = (await pipe.exec()) ?? [];
    const out: Order[] = [];
    for (const [err, json] of replies) {
      if (err) throw err;
      if (typeof json === "string") out.push(parseOrder(json));
    }
    return out;
  };

  const seedOf = async (): Promise<string> => {
    const before = Number((await redis.get(k.referenceSeqBefore)) ?? 0);
    return String(Math.max(before, Math.floor(now())) + SEED_AHEAD_MS);
  };

  let counterSeen = false;
  // One read of the old key shared by the first numberings in flight together (the seed is as
  // fresh as each one's own read would be: taken while they wait).
  let seedInFlight: Promise<string> | undefined;
  const firstSeed = async () => {
    if (counterSeen) return "";
    seedInFlight ??= seedOf().finally(() => {
      seedInFlight = undefined;
    });
    return seedInFlight;
  };
  const numbered = () => {
    counterSeen = true;
  };

  const owedSet = (name: string) => k.crossing(`owed:${name}`);
  const ledger = ledgerKeys(k);
  return { redis, k, ledger, owedSet, now, hold, load, loadMany, seedOf, firstSeed, numbered };
}
