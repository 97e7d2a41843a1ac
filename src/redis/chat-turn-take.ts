import { luaScript } from "./scripts.ts";

// The take's and the renewal's scripts of a chat's turn (the design: chat-turns.ts).

/**
 * KEYS: queue, alive, turn. ARGV: update id, token, lease ms, alive ms, "1" to try the turn as
 * free, the epoch's ttl ms, the count of keys to read once taken and those keys (one node only:
 * they are arguments, not KEYS). Nil: wait; else { epoch when taken, 1 if the update entered the
 * queue (its leave must take it out), the values read (false for none) }.
 *
 * "Try as free" (this instance freed the chat's turn last, so it is most likely free and
 * unmarked) takes it with one `SET … GET`; the value it replaced tells whether that was right.
 * If not (a turn held, marked or absent), the value is put back in the same script (nobody sees
 * ours), a freed one with the epoch's day, a holder's with a whole lease (its remaining one is not
 * known: at most one lease more for a holder that died, and the instance stops trying so for
 * the chat), and the take goes on as below.
 *
 * The turn key is both the lease and the chat's epoch: our token while held, `f:<unique>` once
 * freed (what the last release wrote, kept a day), absent for a chat never taken (epoch "0").
 * A value ending in `|q` says someone may be queued: a waiter marks the holder's value so when it
 * enters the queue, the holder's release carries the mark into the freed value, and only a taker
 * that leaves nobody queued behind it takes the turn unmarked. So the usual case, a freed turn
 * without the mark, is taken without looking at the queue (three commands with the script's
 * own); an absent turn (never taken, or a holder's lease ran out: the mark went with it) looks
 * at the queue first, as does any marked one. The queue and its alive times are only for updates
 * that have to wait.
 */
export const takeTurn = luaScript<"queue" | "alive" | "turn", [string, number] | null>(
  "raTakeChatTurn5",
  ["queue", "alive", "turn"],
  `
local function taken(epoch, queued)
  local n = tonumber(ARGV[7] or '0')
  if n == 0 then return {epoch, queued} end
  local out = redis.call('MGET', unpack(ARGV, 8, 7 + n))
  table.insert(out, 1, queued)
  table.insert(out, 1, epoch)
  return out
end
local holder
if ARGV[5] == '1' then
  holder = redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[3], 'GET')
  if holder and string.sub(holder, 1, 2) == 'f:' and string.sub(holder, -2) ~= '|q' then
    return taken(holder, 0)
  end
  if not holder then redis.call('DEL', KEYS[3])
  elseif string.sub(holder, 1, 2) == 'f:' then redis.call('SET', KEYS[3], holder, 'PX', ARGV[6])
  else redis.call('SET', KEYS[3], holder, 'PX', ARGV[3]) end
else
  holder = redis.call('GET', KEYS[3])
end
local marked = holder and string.sub(holder, -2) == '|q'
local free = (not holder) or string.sub(holder, 1, 2) == 'f:'
local epoch = holder or '0'
if free and not marked and (holder or redis.call('EXISTS', KEYS[1]) == 0) then
  redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[3])
  return taken(epoch, 0)
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local id = ARGV[1]
redis.call('ZADD', KEYS[1], tonumber(id), id)
redis.call('HSET', KEYS[2], id, now + tonumber(ARGV[4]))
local keep = tonumber(ARGV[4]) * 4 + tonumber(ARGV[3])
redis.call('PEXPIRE', KEYS[1], keep)
redis.call('PEXPIRE', KEYS[2], keep)
local head = id
for i = 1, 50 do
  head = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
  if head == id then break end
  local alive = tonumber(redis.call('HGET', KEYS[2], head) or '0')
  if alive > now then break end
  redis.call('ZREM', KEYS[1], head)
  redis.call('HDEL', KEYS[2], head)
end
local mine = holder == ARGV[2] or holder == ARGV[2] .. '|q'
if head ~= id or not (free or mine) then
  if holder and not marked then redis.call('SET', KEYS[3], holder .. '|q', 'KEEPTTL') end
  return false
end
local value = ARGV[2]
if redis.call('ZCARD', KEYS[1]) > 1 then value = value .. '|q' end
redis.call('SET', KEYS[3], value, 'PX', ARGV[3])
return taken(epoch, 1)
`,
);

/** KEYS: turn. ARGV: token, lease ms. Extends our turn, marked or not (nobody else's). */
export const renewTurn = luaScript<"turn", number>(
  "raRenewChatTurn",
  ["turn"],
  `
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] or v == ARGV[1] .. '|q' then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`,
);

/** The take's reply: epoch (a Buffer when values were read), queued, the values read. */
export type TakeReply = [string | Buffer, number, ...Array<Buffer | null>];
