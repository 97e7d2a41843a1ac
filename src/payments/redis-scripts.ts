import { LEDGER_KEYS, LEDGER_LUA, type LedgerKey, ledgerKeysLua } from "../ledger/lua.ts";
import { luaScript } from "../redis/scripts.ts";

/**
 * The Redis top-up store's two scripts. The update checks the version, books the transfer with the
 * ledger's own Lua (which checks everything before it writes), and only then writes the top-up
 * and its schedule: the credit and "completed" are one step.
 */

// KEYS: topUp, byUser, due. ARGV: json, createdAt, member, dueAt.
const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', '0', 'j', ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
return 1
`;

// KEYS: topUp, due, held, partial, then the ledger keys.
// ARGV: expected version, new version, json, member, dueAt ('' = off the schedule), held since
// ('' = not held), partial refund since ('' = not waiting for a figure), transfer?, then the
// transfer's TRANSFER_ARGC.
const UPDATE = `${LEDGER_LUA}
${ledgerKeysLua(5)}
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return {0} end
local booked = false
if ARGV[8] == '1' then
  booked = ledger_transfer(L, ARGV, 9)
  if booked[1] ~= 1 then return {2, booked} end
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'j', ARGV[3])
if ARGV[5] == '' then redis.call('ZREM', KEYS[2], ARGV[4])
else redis.call('ZADD', KEYS[2], ARGV[5], ARGV[4]) end
if ARGV[6] == '' then redis.call('ZREM', KEYS[3], ARGV[4])
else redis.call('ZADD', KEYS[3], ARGV[6], ARGV[4]) end
if ARGV[7] == '' then redis.call('ZREM', KEYS[4], ARGV[4])
else redis.call('ZADD', KEYS[4], ARGV[7], ARGV[4]) end
if booked then return {1, booked} end
return {1}
`;

export const createScript = luaScript<"topUp" | "byUser" | "due", number>(
  "raTopUpCreate",
  ["topUp", "byUser", "due"],
  CREATE,
);
export const updateScript = luaScript<
  "topUp" | "due" | "held" | "partial" | LedgerKey,
  [number, unknown?]
>("raTopUpUpdate", ["topUp", "due", "held", "partial", ...LEDGER_KEYS], UPDATE);
