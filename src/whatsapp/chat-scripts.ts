import { luaScript } from "../redis/scripts.ts";

/**
 * The chat hash's scripts (chat-store.ts). KEYS[1]: the chat's hash. Its fields:
 *  - `seq`: the last message id taken; `in`: when the customer last wrote ("s" and unix seconds
 *    in base 36);
 *  - `lb` / `lo`: the newest message with buttons, and the newest message shown;
 *  - `m:<id>`: a message's record, "<pieces>|<flags>|<buttons hash>|<last wamid>|<seen>" (flags:
 *    1 delivered, + 2 numbered: words kept while it has the newest buttons, or + 4 paged: words
 *    kept while its buttons are there; the last wamid: 4 characters of its newest rendering's hash, until delivered; seen: 6-character
 *    hashes of every text it showed, run together);
 *  - `t:<id>`, `t:<id>:<k>`: its words and numbered choices in pieces (chat-record.ts), kept only
 *    while they may be needed: until its newest rendering is delivered (a `failed` 131047 sends the
 *    words again as the template), when it numbers its rows while it is the newest message with
 *    buttons (its choices answer a typed number), and when it pages its buttons until they are
 *    taken away (a new page of its buttons shows its words again, whichever message is newest);
 *    never for a message whose words carry a secret (chat-store.ts Shown.secret: no pieces given);
 *  - `w<wamid hash>`: "<message id>.<status bits>[.<seq when sent>]" of each sent wamid (a tap's
 *    context names the message; each delivery status is counted once); the seq only when the
 *    rendering was sent after the message's own id (a question asked again): renderings go KEEP
 *    ids after they were sent, those of the newest buttons and of a few older messages whose
 *    buttons are still there never (their question may still be answered).
 * Records written before issue 31 (`m:<id>` as JSON) are read by chat-store.ts as they are.
 */

/** Messages whose records a chat keeps: older ones' taps answer "no longer active". */
export const KEEP_MESSAGES = 40;
/** Ids after which a message's words go even when no delivery status came for it. */
const WORDS_UNCONFIRMED = 16;
/** Records older than KEEP whose buttons are still there, kept besides the newest buttons. */
const KEEP_LIVE = 4;
/** Ids looked at below KEEP and WORDS_UNCONFIRMED at each new message (the gap since the last). */
const GAP = 8;

/**
 * The whole hash read once: everything of messages KEEP before id goes (records, JSON ones from
 * before issue 31 included, words, renderings written that long ago), but the newest message
 * with buttons and the KEEP_LIVE newest whose buttons are still there; words not confirmed
 * delivered go after WORDS_UNCONFIRMED ids, but those of a message that still needs them.
 * Ranges, not single ids: a customer's messages take ids too.
 */
const SWEEP = `
local function sweep(id, keep, lb)
  local gone = id - keep
  local stale = id - ${WORDS_UNCONFIRMED}
  local all = redis.call('HGETALL', chat)
  local recs, old, paged = {}, {}, {}
  for i = 1, #all, 2 do
    local n = string.match(all[i], '^m:(%d+)$')
    if n then
      n = tonumber(n)
      recs[n] = all[i + 1]
      if n <= gone and n ~= lb and live(all[i + 1]) then old[#old + 1] = n end
      local r = string.sub(all[i + 1], 1, 1) ~= '{' and rec(n)
      if r and r[1] > 0 and n ~= lb and keepsWords(r) then paged[#paged + 1] = n end
    end
  end
  local newest = function(a, b) return a > b end
  table.sort(old, newest)
  table.sort(paged, newest)
  -- No newest buttons (lb 0): id 0 is what a status of an unknown wamid names, never kept.
  local keepIds, wordIds = {}, {}
  if lb > 0 then keepIds[lb], wordIds[lb] = true, true end
  for i = 1, math.min(${KEEP_LIVE}, #old) do keepIds[old[i]] = true end
  for i = 1, math.min(${KEEP_LIVE}, #paged) do wordIds[paged[i]] = true end
  local drop, emptied = {}, {}
  for i = 1, #all, 2 do
    local f = all[i]
    local m = tonumber(string.match(f, '^m:(%d+)$'))
    local t = tonumber(string.match(f, '^t:(%d+)'))
    if m then
      if m <= gone and not keepIds[m] then drop[#drop + 1] = f end
    elseif t then
      local r = recs[t] and string.sub(recs[t], 1, 1) ~= '{' and rec(t)
      if not r or (t <= gone and not keepIds[t]) then
        drop[#drop + 1] = f
      elseif not wordIds[t] and (t <= stale or delivered(r)) then
        drop[#drop + 1] = f
        emptied[t] = r
      end
    elseif string.sub(f, 1, 1) == 'w' then
      local wid, _, written = wamidParts(all[i + 1])
      if written <= gone and not keepIds[wid] then drop[#drop + 1] = f end
    end
  end
  for k = 1, #drop, 1000 do
    redis.call('HDEL', chat, unpack(drop, k, math.min(k + 999, #drop)))
  end
  for n, r in pairs(emptied) do
    if recs[n] and not (n <= gone and not keepIds[n]) then
      r[1] = 0
      putRec(n, r)
    end
  end
end
`;

const HELPERS = `
local chat = KEYS[1]
local function rec(id)
  local v = redis.call('HGET', chat, 'm:' .. id)
  if not v then return nil end
  local n, d, bh, lw, seen = string.match(v, '^(%d+)|(%d)|([^|]*)|([^|]*)|(.*)$')
  if not n then return nil end
  return {tonumber(n), d, bh, lw, seen}
end
local function putRec(id, r)
  redis.call('HSET', chat, 'm:' .. id, r[1] .. '|' .. r[2] .. '|' .. r[3] .. '|' .. r[4] .. '|' .. r[5])
end
local function delivered(r) return tonumber(r[2]) % 2 == 1 end
local function kept(r) return tonumber(r[2]) >= 2 end
local function pieceField(id, k)
  if k == 0 then return 't:' .. id end
  return 't:' .. id .. ':' .. k
end
local function dropWords(id, r)
  if r and r[1] > 0 then
    local f = {}
    for k = 0, r[1] - 1 do f[#f + 1] = pieceField(id, k) end
    redis.call('HDEL', chat, unpack(f))
    r[1] = 0
  end
end
local function words(id, r)
  if not r or r[1] == 0 then return '' end
  local f = {}
  for k = 0, r[1] - 1 do f[#f + 1] = pieceField(id, k) end
  return table.concat(redis.call('HMGET', chat, unpack(f)))
end
-- "<message id>.<status bits>[.<seq when written>]" (the seq only when it is not the id).
local function wamidParts(v)
  if not v then return 0, 0, 0 end
  local a, b, w = string.match(v, '^(%d+)%.(%d+)%.?(%d*)$')
  a = tonumber(a) or 0
  return a, tonumber(b) or 0, tonumber(w) or a
end
local function wamidOf(field)
  local a, b, w = wamidParts(redis.call('HGET', chat, field))
  return a, b, w
end
local function wamidValue(id, bits, written)
  if written == id or written == 0 then return id .. '.' .. bits end
  return id .. '.' .. bits .. '.' .. written
end
-- A record whose buttons were not taken away (a JSON one from before issue 31 included): its
-- question may still be answered, so it and its renderings outlive KEEP.
local function live(v)
  if not v then return false end
  if string.sub(v, 1, 1) == '{' then return not string.find(v, '"buttons":""', 1, true) end
  local bh = string.match(v, '^%d+|%d|([^|]*)|')
  return bh ~= nil and bh ~= ''
end
-- Paged, with its buttons still there: a new page of them shows its words again (a numbered
-- one's numbers answer only while it has the newest buttons).
local function keepsWords(r) return tonumber(r[2]) >= 4 and r[3] ~= '' end
`;

/** ARGV[1]: the TTL. The next message id. */
export const nextIdScript = luaScript<"chat", number>(
  "waNextMessageId",
  ["chat"],
  `
local n = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('EXPIRE', KEYS[1], ARGV[1])
return n
`,
);

/**
 * What message ARGV[2] shows now ("" for a new one: its id taken from `seq`), and its wamids; its id.
 * ARGV: ttl, id, buttons hash ("" none), seen, "0" without buttons, "1" with, "2" with and its
 * words kept while they are the newest (numbered), "3" with and its words kept while they are
 * there (paged), the sent wamids' hashes (comma
 * separated, "" when nothing was sent: its words and delivery stay as they were), KEEP, then the
 * pieces of its words. A new rendering keeps its words until delivered; the newest message with
 * buttons moving on lets the previous one's words go once delivered (unless paged); a new id lets
 * the records KEEP before it go (up to GAP ids: a customer's messages take ids too), and the words
 * WORDS_UNCONFIRMED before it (the statuses come within seconds); a hash grown past 2 * KEEP + 16
 * fields is swept whole (SWEEP).
 */
export const putShownScript = luaScript<"chat", number>(
  "waPutShown3",
  ["chat"],
  `${HELPERS}${SWEEP}
local id = tonumber(ARGV[2])
local fresh = ARGV[2] == ''
if fresh then id = redis.call('HINCRBY', chat, 'seq', 1) end
local old = rec(id)
local r
if ARGV[6] ~= '' then
  dropWords(id, old)
  local n = #ARGV - 7
  for k = 0, n - 1 do redis.call('HSET', chat, pieceField(id, k), ARGV[8 + k]) end
  local last = ''
  -- When it was written: a rendering sent now of an older message is as new as the seq.
  local now = fresh and id or tonumber(redis.call('HGET', chat, 'seq') or id)
  for h in string.gmatch(ARGV[6], '[^,]+') do
    local _, bits = wamidOf('w' .. h)
    redis.call('HSET', chat, 'w' .. h, wamidValue(id, bits, now))
    last = string.sub(h, 1, 4)
  end
  r = {n, ARGV[5] == '3' and '4' or ARGV[5] == '2' and '2' or '0', ARGV[3], last, ARGV[4]}
  redis.call('HSET', chat, 'lo', id)
elseif old then
  r = {old[1], old[2], ARGV[3], old[4], ARGV[4]}
else
  r = {0, '1', ARGV[3], '', ARGV[4]}
end
if ARGV[6] == '' and ARGV[5] == '0' then
  -- Its buttons went: its numbers no longer answer, its words go once delivered.
  if tonumber(redis.call('HGET', chat, 'lb') or '0') == id then redis.call('HDEL', chat, 'lb') end
  r[2] = delivered(r) and '1' or '0'
  if delivered(r) then dropWords(id, r) end
end
if ARGV[5] ~= '0' then
  local lb = tonumber(redis.call('HGET', chat, 'lb') or '0')
  if lb ~= id and lb > 0 then
    local p = rec(lb)
    if p and delivered(p) and p[1] > 0 and not keepsWords(p) then
      dropWords(lb, p)
      putRec(lb, p)
    end
  end
  redis.call('HSET', chat, 'lb', id)
end
putRec(id, r)
if old == nil then
  local keep = tonumber(ARGV[7])
  local gone = id - keep
  local lb = tonumber(redis.call('HGET', chat, 'lb') or '0')
  -- The ids a customer's messages took in between too (a longer gap: the sweep below).
  for n = math.max(1, gone - ${GAP} + 1), gone do
    local v = redis.call('HGET', chat, 'm:' .. n)
    if v and n ~= lb and not live(v) then
      dropWords(n, rec(n))
      redis.call('HDEL', chat, 'm:' .. n)
    end
  end
  -- Words never confirmed delivered (no status came) are not kept for long either.
  local stale = id - ${WORDS_UNCONFIRMED}
  for n = math.max(1, stale - ${GAP} + 1), stale do
    local p = n ~= lb and rec(n)
    if p and p[1] > 0 and not keepsWords(p) then
      dropWords(n, p)
      putRec(n, p)
    end
  end
  if redis.call('HLEN', chat) > 2 * keep + 16 then sweep(id, keep, lb) end
end
redis.call('EXPIRE', chat, ARGV[1])
return id
`,
);

/** A message's record and its words: {record or JSON, words}; {} when unknown. ARGV[1]: the id. */
export const shownScript = luaScript<"chat", string[]>(
  "waShown2",
  ["chat"],
  `${HELPERS}
local raw = redis.call('HGET', chat, 'm:' .. ARGV[1])
if not raw then return {} end
return {raw, words(ARGV[1], rec(ARGV[1]))}
`,
);

/**
 * ARGV: ttl, when (ms), "" / "n" / "b" (none, the next id, the next id and the newest buttons),
 * then the accounts' phones and locales hashes ("" for neither), the phone, the chat id, the
 * accounts' Meta user ids hash. {next id or 0, owner, locale, owner's Meta user id} or {next id,
 * owner, locale, user id, lb, lo, lb's record, lb's words}: the customer's message recorded, the
 * next id and the newest buttons in one round trip; with the hashes named, the person the phone
 * belongs to (false: none), the Meta user id recorded for it (false: none) and that person's
 * language (the chat's own when the phone has no owner yet: it is registered as the chat; false: none) read in
 * the same round trip (one node only: those keys are arguments, not KEYS, and in another slot; a
 * Cluster reads them itself). Was waArrive2 (no person), waArrive3 (no Meta user id): an
 * instance of a version before runs its own script, the chat's fields are written the same.
 */
export const arriveScript = luaScript<"chat", Array<string | number | null>>(
  "waArrive4",
  ["chat"],
  `${HELPERS}
redis.call('HSET', chat, 'in', ARGV[2])
local n = 0
if ARGV[3] ~= '' then n = redis.call('HINCRBY', chat, 'seq', 1) end
redis.call('EXPIRE', chat, ARGV[1])
local owner, locale, wau = false, false, false
if ARGV[4] ~= '' then
  owner = redis.call('HGET', ARGV[4], ARGV[6])
  locale = redis.call('HGET', ARGV[5], owner or ARGV[7])
  if owner then wau = redis.call('HGET', ARGV[8], owner) end
end
if ARGV[3] ~= 'b' then return {n, owner, locale, wau} end
local v = redis.call('HMGET', chat, 'lb', 'lo')
if not v[1] then return {n, owner, locale, wau} end
local raw = redis.call('HGET', chat, 'm:' .. v[1]) or ''
return {n, owner, locale, wau, v[1], v[2] or '0', raw, words(v[1], rec(v[1]))}
`,
);

/**
 * ARGV: ttl, the wamid's hash, the status's bit, "1" for delivered or read. 1 when the status is
 * new, 0 when it was known (a redelivery). Delivered, a message's newest rendering no longer needs
 * its words (unless it has the newest buttons).
 */
export const putStatusScript = luaScript<"chat", number>(
  "waPutStatus3",
  ["chat"],
  `${HELPERS}
local field = 'w' .. ARGV[2]
local id, bits, written = wamidOf(field)
local bit = tonumber(ARGV[3])
if math.floor(bits / bit) % 2 == 1 then return 0 end
redis.call('HSET', chat, field, wamidValue(id, bits + bit, written))
if ARGV[4] == '1' and id > 0 then
  local r = rec(id)
  if r and r[4] == string.sub(ARGV[2], 1, 4) and not delivered(r) then
    r[2] = tostring(tonumber(r[2]) + 1)
    r[4] = ''
    local newest = tonumber(redis.call('HGET', chat, 'lb') or '0') == id
    if not ((newest and kept(r)) or keepsWords(r)) then dropWords(id, r) end
    putRec(id, r)
  end
end
redis.call('EXPIRE', chat, ARGV[1])
return 1
`,
);
