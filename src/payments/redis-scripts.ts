import { LEDGER_KEYS, LEDGER_LUA, type LedgerKey, ledgerKeysLua } from "../ledger/lua.ts";
import { luaScript } from "../redis/scripts.ts";

/**
 * The Redis top-up store's two scripts. The update checks the version, a credit's caps, books the
 * transfer with the ledger's own Lua (which checks everything before it writes), and only then
 * writes the top-up and its schedule: the cap check, the credit and "completed" are one step.
 */

// KEYS: topUp, byUser, due. ARGV: json, createdAt, member, dueAt.
const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', '0', 'j', ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
return 1
`;

// KEYS: topUp, due, held, partial, then the ledger keys, then byUser (the user's top-ups), then
// (a credit's cap check only) the user's other top-ups created in [from, until), as the caller read them.
// ARGV: expected version, new version, json, member, dueAt ('' = off the schedule), held since
// ('' = not held), partial refund since ('' = not waiting for a figure), transfer?, then the
// credit's caps (credit, TOPUP_MAX_AMOUNT, daily cap, the day's from and until, the top-ups' name
// prefix; credit '' = no cap to check), then the transfer's TRANSFER_ARGC.
//
// The daily cap sums what the user's other top-ups started in [from, until) credited, as
// caps.ts \`limitBeside\` does, reading each by the key the caller declared for it (the byUser
// member after the name prefix): a script touches no key it did not declare (Cluster, and Redis's
// rule for scripts). Refused {3, the limit} with nothing written: another credit came in since
// the caller read them. Refused {4} with nothing written: a top-up of the window is not among the
// declared ones (created since the caller read them): the caller reads them again. A sibling
// that is not a JSON object, or whose creditedPaisa is there but not a number, counts as
// TOPUP_MAX_AMOUNT credited, as \`limitBeside\` counts a record that does not parse (review
// s31-pay, 1: cjson.decode raised a script error there); one failing only the schema elsewhere
// counts its creditedPaisa here: the caller's reading, the lower limit, counted the maximum.
const UPDATE = `${LEDGER_LUA}
${ledgerKeysLua(5)}
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return {0} end
if ARGV[9] ~= '' then
  local room = tonumber(ARGV[11])
  local declared = {}
  for i = 11, #KEYS do declared[KEYS[i]] = true end
  local members = redis.call('ZRANGEBYSCORE', KEYS[10], ARGV[12], '(' .. ARGV[13])
  for _, m in ipairs(members) do
    if m ~= ARGV[4] and not declared[ARGV[14] .. m] then return {4} end
  end
  for _, m in ipairs(members) do
    if m ~= ARGV[4] then
      local j = redis.call('HGET', ARGV[14] .. m, 'j')
      if j then
        local ok, rec = pcall(cjson.decode, j)
        local credited = ok and type(rec) == 'table' and rec.creditedPaisa
        if type(credited) == 'number' then room = room - credited
        elseif not ok or type(rec) ~= 'table' or credited ~= nil then
          room = room - tonumber(ARGV[10])
        end
      end
    end
  end
  local limit = math.max(0, math.min(tonumber(ARGV[10]), room))
  if tonumber(ARGV[9]) > limit then return {3, tostring(limit)} end
end
local booked = false
if ARGV[8] == '1' then
  booked = ledger_transfer(L, ARGV, 15)
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
  "topUp" | "due" | "held" | "partial" | LedgerKey | "byUser",
  [number, unknown?]
>("raTopUpUpdate", ["topUp", "due", "held", "partial", ...LEDGER_KEYS, "byUser"], UPDATE);
