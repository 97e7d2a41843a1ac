import {
  LEDGER_KEYS,
  LEDGER_LUA,
  type LedgerKey,
  ledgerKeys,
  ledgerKeysLua,
  parseLedgerReply,
  transferArgv,
} from "../ledger/lua.ts";
import { transferInputSchema } from "../ledger/model.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import { type TopUp, topUpSchema } from "./model.ts";
import type { TopUpStore } from "./store.ts";

/**
 * Top-ups in Redis: a hash {v, j} per top-up, the user's index and the global schedule. The update
 * is one Lua script that checks the version, books the transfer with the ledger's own Lua (which
 * checks everything before it writes), and only then writes the top-up and its schedule: the
 * credit and "completed" are one step, and a kill -9 at any point leaves both or neither.
 * Cross-slot on Redis Cluster, like the order scripts (see src/redis/keyspace.ts).
 */

// KEYS: topUp, byUser, due. ARGV: json, createdAt, member, dueAt.
const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', '0', 'j', ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
return 1
`;

// KEYS: topUp, due, held, then the four ledger keys.
// ARGV: expected version, new version, json, member, dueAt ('' = off the schedule), held since
// ('' = not held), transfer?, then the transfer's TRANSFER_ARGC.
const UPDATE = `${LEDGER_LUA}
${ledgerKeysLua(4)}
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return {0} end
local booked = false
if ARGV[7] == '1' then
  booked = ledger_transfer(L, ARGV, 8)
  if booked[1] ~= 1 then return {2, booked} end
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'j', ARGV[3])
if ARGV[5] == '' then redis.call('ZREM', KEYS[2], ARGV[4])
else redis.call('ZADD', KEYS[2], ARGV[5], ARGV[4]) end
if ARGV[6] == '' then redis.call('ZREM', KEYS[3], ARGV[4])
else redis.call('ZADD', KEYS[3], ARGV[6], ARGV[4]) end
if booked then return {1, booked} end
return {1}
`;

const createScript = luaScript<"topUp" | "byUser" | "due", number>(
  "raTopUpCreate",
  ["topUp", "byUser", "due"],
  CREATE,
);
const updateScript = luaScript<"topUp" | "due" | "held" | LedgerKey, [number, unknown?]>(
  "raTopUpUpdate",
  ["topUp", "due", "held", ...LEDGER_KEYS],
  UPDATE,
);

export function createRedisTopUpStore(opts: {
  redis: RedisClient;
  prefix: string;
  now?: () => number;
}): TopUpStore {
  const { redis } = opts;
  const now = opts.now ?? Date.now;
  const k = keyspace(opts.prefix);
  const member = (gateway: string, paymentId: string) => `${gateway}:${paymentId}`;
  const split = (m: string): [string, string] => {
    const i = m.indexOf(":");
    return [m.slice(0, i), m.slice(i + 1)];
  };
  const parse = (json: string, version: string): TopUp =>
    topUpSchema.parse({ ...JSON.parse(json), version: Number(version) });

  const get = async (gateway: string, paymentId: string): Promise<TopUp | null> => {
    const [v, j] = await redis.hmget(k.topUp(gateway, paymentId), "v", "j");
    return v == null || j == null ? null : parse(j, v);
  };

  return {
    async create(t, dueAt) {
      const v = topUpSchema.parse({ ...t, version: 0 });
      const created = await createScript.run(
        redis,
        {
          topUp: k.topUp(v.gateway, v.paymentId),
          byUser: k.topUpsByUser(v.userId),
          due: k.topUpsDue,
        },
        JSON.stringify(v),
        String(v.createdAt),
        member(v.gateway, v.paymentId),
        String(dueAt),
      );
      if (created !== 1) throw new Error(`top-up ${v.gateway}:${v.paymentId} exists`);
    },
    get,
    async listByUser(userId, since) {
      const members = await redis.zrevrangebyscore(k.topUpsByUser(userId), "+inf", String(since));
      const out: TopUp[] = [];
      for (const m of members) {
        const i = m.indexOf(":");
        const t = await get(m.slice(0, i), m.slice(i + 1));
        if (t) out.push(t);
      }
      return out;
    },
    async update(expectedVersion, next, transfer, dueAt) {
      const written = topUpSchema.parse({ ...next, version: expectedVersion + 1 });
      const t = transfer ? transferInputSchema.parse(transfer) : undefined;
      const reply = await updateScript.run(
        redis,
        {
          topUp: k.topUp(written.gateway, written.paymentId),
          due: k.topUpsDue,
          held: k.topUpsHeld,
          ...ledgerKeys(k),
        },
        String(expectedVersion),
        String(written.version),
        JSON.stringify(written),
        member(written.gateway, written.paymentId),
        dueAt === null ? "" : String(dueAt),
        written.status === "held" ? String(written.held?.at ?? written.updatedAt) : "",
        t ? "1" : "0",
        ...(t ? transferArgv(t, now()) : []),
      );
      if (reply[0] === 0) return { ok: false, reason: "version" };
      if (reply[0] === 2) {
        const r = parseLedgerReply(reply[1]);
        if (r.ok) throw new Error("a booked transfer reported as refused");
        return { ok: false, reason: "ledger", refusal: r.refusal };
      }
      return reply[1] === undefined
        ? { ok: true }
        : { ok: true, ledger: parseLedgerReply(reply[1]) };
    },
    async due(at, limit) {
      const members = await redis.zrangebyscore(k.topUpsDue, "-inf", String(at), "LIMIT", 0, limit);
      return members.map(split);
    },
    async held(limit) {
      const members = await redis.zrange(k.topUpsHeld, "0", String(limit - 1));
      const out: TopUp[] = [];
      for (const [g, pid] of members.map(split)) {
        const t = await get(g, pid);
        if (t?.status === "held") out.push(t);
      }
      return out;
    },
  };
}
