import type { RedisClient } from "./connection.ts";

/**
 * The one place Lua reaches Redis. A script is declared once, next to the code it serves, with
 * names for its keys (the keys decide the Cluster slot, see keyspace.ts); `run` defines it on a
 * connection the first time that connection needs it (ioredis `defineCommand`: EVALSHA, falling
 * back to EVAL after a Redis restart flushed the script cache). Nothing else in src/ calls
 * `eval` or `defineCommand` (test/unit/redis-keyspace.test.ts checks).
 */
export interface LuaScript<K extends string, R> {
  readonly name: string;
  /** KEYS[1..n] in this order. */
  readonly keys: readonly K[];
  readonly lua: string;
  /** The reply is Redis's, cast to R: the script's own code is what types it. */
  run(
    redis: RedisClient,
    keys: Record<K, string>,
    ...argv: Array<string | number | Buffer>
  ): Promise<R>;
  /**
   * `run` with keys known only at the call after the named ones (KEYS[n+1..]): a script declares
   * every key it touches, including those it cannot name in advance.
   */
  runWithKeys(
    redis: RedisClient,
    keys: Record<K, string>,
    more: readonly string[],
    ...argv: Array<string | number | Buffer>
  ): Promise<R>;
  /** `run` with bulk replies as Buffers (binary values read by the script); typed by the caller. */
  runBuffer<B>(
    redis: RedisClient,
    keys: Record<K, string>,
    ...argv: Array<string | number | Buffer>
  ): Promise<B>;
}

const registry = new Map<string, LuaScript<string, unknown>>();
const definedOn = new WeakMap<RedisClient, Set<string>>();

/** Declares a script under a name unique in the process (the ioredis command name). */
export function luaScript<K extends string, R>(
  name: string,
  keys: readonly K[],
  lua: string,
): LuaScript<K, R> {
  const known = registry.get(name);
  if (known && known.lua !== lua) throw new Error(`two different Lua scripts named ${name}`);
  const script: LuaScript<K, R> = {
    name,
    keys,
    lua,
    async run(redis, named, ...argv) {
      return (await command(redis, name)(...keys.map((k) => named[k]), ...argv)) as R;
    },
    async runWithKeys(redis, named, more, ...argv) {
      const all = [...keys.map((k) => named[k]), ...more];
      return (await command(redis, `${name}Keyed`, null)(all.length, ...all, ...argv)) as R;
    },
    async runBuffer<B>(
      redis: RedisClient,
      named: Record<K, string>,
      ...argv: Array<string | number | Buffer>
    ) {
      // ioredis's defineCommand adds the Buffer variant under the name + "Buffer".
      return (await command(redis, `${name}Buffer`)(...keys.map((k) => named[k]), ...argv)) as B;
    },
  };
  /**
   * The script's command on `redis`, defined there the first time; `numberOfKeys` null: the
   * command's first argument is how many keys follow (`runWithKeys`), under its own name.
   */
  function command(redis: RedisClient, as: string, numberOfKeys: number | null = keys.length) {
    let names = definedOn.get(redis);
    if (!names) {
      names = new Set();
      definedOn.set(redis, names);
    }
    const defined = numberOfKeys === null ? as : name;
    if (!names.has(defined)) {
      redis.defineCommand(
        defined,
        numberOfKeys === null ? { lua } : { numberOfKeys: keys.length, lua },
      );
      names.add(defined);
    }
    const commands = redis as unknown as Record<
      string,
      (...a: Array<string | number | Buffer>) => unknown
    >;
    return (...a: Array<string | number | Buffer>) => commands[as]!.apply(redis, a);
  }
  registry.set(name, script as LuaScript<string, unknown>);
  return script;
}

/** Deletes a lock or lease only if it still holds our token (nobody else's). ARGV: token. */
export const deleteIfHeld = luaScript<"key", number>(
  "raDeleteIfHeld",
  ["key"],
  `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`,
);

/** Extends a lease only if it still holds our token. ARGV: token, ttl ms. */
export const extendIfHeld = luaScript<"key", number>(
  "raExtendIfHeld",
  ["key"],
  `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`,
);
