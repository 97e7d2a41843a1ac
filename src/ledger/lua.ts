import type { Keyspace } from "../redis/keyspace.ts";
import { debitsMustNotExceedCredits } from "./chart.ts";
import { fingerprint } from "./core.ts";
import {
  type HoldInput,
  type JournalEntry,
  journalEntrySchema,
  type LedgerResult,
  refusalSchema,
  type TransferInput,
} from "./model.ts";

/**
 * The ledger's rules in Lua: a library of functions that a script includes by concatenation,
 * `LEDGER_LUA .. <its own body>`. The ledger's standalone scripts (redis-store.ts) are that and a
 * one-line body; the order store's place script will call `ledger_hold` and its apply script
 * `ledger_post`/`ledger_void`, so the order and its money change in one atomic step.
 *
 * Interface (every function checks everything before it writes anything, so a caller that calls
 * it before its own writes can return a refusal with nothing written; Lua has no rollback):
 *
 *   local L = {bal = KEYS[a], xfer = KEYS[a+1], pend = KEYS[a+2], journal = KEYS[a+3],
 *              idx = KEYS[a+4]}
 *     (the five ledger keys, in LEDGER_KEYS order; `ledgerKeysLua(a)` writes this line)
 *   ledger_transfer(L, ARGV, i)  -- posted transfer; ARGV[i .. i+9] from transferArgv()
 *   ledger_hold(L, ARGV, i)      -- pending transfer; ARGV[i .. i+9] from holdArgv()
 *   ledger_post(L, pendingId, at) / ledger_void(L, pendingId, at)
 *   ledger_available(L, account)  -- credits posted - debits posted - debits pending (a number)
 *
 * Each returns a reply the caller may return as is or nest, read back by `parseLedgerReply`:
 *   {1, duplicate (0|1), entry}          entry = {streamId, {field, value, ...}} (XRANGE's shape)
 *   {0, 'insufficient_funds', account, available, amount}
 *   {0, 'id_conflict', id} | {0, 'unknown_pending', id} | {0, 'already_resolved', id, state}
 *
 * Storage: `bal` a hash of "<account>|dp|cp|dq|cq" -> paisa (TigerBeetle's four counters);
 * `xfer` a hash transfer id -> "<streamId> <fingerprint>"; `pend` a hash hold id -> "pending" or
 * "posted <streamId>" / "voided <streamId>"; `journal` a stream, one entry per transfer, fields
 * id k(ind) d(ebit) c(redit) a(mount) r(eference) p(endingId) w(hy), with explicit ids
 * "<ms>-<n>" never earlier than the last (the booking time; the memory store books the same way).
 * `idx` the read index (account-index.ts), written by every booking in the same step.
 * Amounts travel as decimal strings and are compared as Lua numbers, exact below 2^53.
 */
export const LEDGER_LUA = `
local function ledger_fmt(n) return string.format('%.0f', n) end

local function ledger_entry(L, sid)
  return redis.call('XRANGE', L.journal, sid, sid)[1]
end

-- The entry is booked at 'at' ("<at>-*": Redis numbers it after the last entry of that ms); only
-- when the journal already ends later (clocks apart) is the last entry read, and the new one
-- booked right after it. Returns the entry as XRANGE would (its id and its fields), without
-- reading it back.
local function ledger_book(L, at, fields)
  local ms = tonumber(at)
  local sid = redis.pcall('XADD', L.journal, ledger_fmt(ms) .. '-*', unpack(fields))
  if type(sid) ~= 'string' then
    local n = 0
    local last = redis.call('XREVRANGE', L.journal, '+', '-', 'COUNT', 1)[1]
    if last then
      local dash = string.find(last[1], '-', 1, true)
      local lms = tonumber(string.sub(last[1], 1, dash - 1))
      if lms >= ms then ms = lms; n = tonumber(string.sub(last[1], dash + 1)) + 1 end
    end
    sid = ledger_fmt(ms) .. '-' .. ledger_fmt(n)
    redis.call('XADD', L.journal, sid, unpack(fields))
  end
  return {sid, fields}
end

-- An account's cp, dp and dq as Redis holds them now, read once a step: every write of a balance
-- goes through ledger_add, which keeps a read copy current with what HINCRBY answers. (L.seen is
-- new with every script call: nothing is kept between steps.)
local function ledger_balances(L, acc)
  local b = L.seen[acc]
  if not b then
    b = redis.call('HMGET', L.bal, acc .. '|cp', acc .. '|dp', acc .. '|dq')
    L.seen[acc] = b
  end
  return b
end

local LEDGER_SEEN_SLOT = {cp = 1, dp = 2, dq = 3}

local function ledger_add(L, acc, field, amount)
  local v = redis.call('HINCRBY', L.bal, acc .. '|' .. field, amount)
  local b = L.seen[acc]
  local slot = LEDGER_SEEN_SLOT[field]
  if b and slot then b[slot] = v end
end

-- The read index (account-index.ts): per side, the account's posted and held balances right
-- after the entry (read from the balances just written); and the entry by its reference.
local function ledger_index(L, sid, debit, credit, ref)
  local dash = string.find(sid, '-', 1, true)
  local s = string.format('%015.0f-%08.0f', tonumber(string.sub(sid, 1, dash - 1)),
    tonumber(string.sub(sid, dash + 1)))
  local m = {}
  for _, acc in ipairs({debit, credit}) do
    local b = ledger_balances(L, acc)
    local posted = tonumber(b[1] or '0') - tonumber(b[2] or '0')
    m[#m + 1] = 0
    m[#m + 1] = 'a:' .. acc .. '|' .. s .. '|' .. ledger_fmt(posted) .. '|' .. ledger_fmt(tonumber(b[3] or '0'))
  end
  if ref ~= '' then
    m[#m + 1] = 0
    m[#m + 1] = 'r:' .. string.len(ref) .. ':' .. ref .. '|' .. s
  end
  redis.call('ZADD', L.idx, unpack(m))
end

local function ledger_available(L, acc)
  local b = ledger_balances(L, acc)
  return tonumber(b[1] or '0') - tonumber(b[2] or '0') - tonumber(b[3] or '0')
end

local function ledger_write(L, A, i, pending)
  local id, fp, kind, debit, credit, amount = A[i], A[i+1], A[i+2], A[i+3], A[i+4], A[i+5]
  local prior = redis.call('HGET', L.xfer, id)
  if prior then
    local sp = string.find(prior, ' ', 1, true)
    if string.sub(prior, sp + 1) ~= fp then return {0, 'id_conflict', id} end
    return {1, 1, ledger_entry(L, string.sub(prior, 1, sp - 1))}
  end
  if A[i+6] == '1' then
    local avail = ledger_available(L, debit)
    if avail < tonumber(amount) then
      return {0, 'insufficient_funds', debit, ledger_fmt(avail), amount}
    end
  end
  local d, c = 'dp', 'cp'
  if pending then d, c = 'dq', 'cq' end
  ledger_add(L, debit, d, amount)
  ledger_add(L, credit, c, amount)
  local entry = ledger_book(L, A[i+9], {'id', id, 'k', kind, 'd', debit, 'c', credit, 'a', amount,
    'r', A[i+7], 'p', '', 'w', A[i+8]})
  redis.call('HSET', L.xfer, id, entry[1] .. ' ' .. fp)
  ledger_index(L, entry[1], debit, credit, A[i+7])
  if pending then redis.call('HSET', L.pend, id, 'pending') end
  return {1, 0, entry}
end

local function ledger_transfer(L, A, i) return ledger_write(L, A, i, false) end
local function ledger_hold(L, A, i) return ledger_write(L, A, i, true) end

local function ledger_resolve(L, pid, action, at)
  local st = redis.call('HGET', L.pend, pid)
  if not st then return {0, 'unknown_pending', pid} end
  local want = 'voided'
  if action == 'post' then want = 'posted' end
  if st ~= 'pending' then
    local sp = string.find(st, ' ', 1, true)
    local was = string.sub(st, 1, sp - 1)
    if was == want then return {1, 1, ledger_entry(L, string.sub(st, sp + 1))} end
    return {0, 'already_resolved', pid, was}
  end
  local prior = redis.call('HGET', L.xfer, pid)
  local hold = ledger_entry(L, string.sub(prior, 1, string.find(prior, ' ', 1, true) - 1))
  local f = {}
  for j = 1, #hold[2], 2 do f[hold[2][j]] = hold[2][j + 1] end
  local minus = '-' .. f.a
  ledger_add(L, f.d, 'dq', minus)
  ledger_add(L, f.c, 'cq', minus)
  if action == 'post' then
    ledger_add(L, f.d, 'dp', f.a)
    ledger_add(L, f.c, 'cp', f.a)
  end
  local entry = ledger_book(L, at, {'id', pid .. '/' .. action, 'k', action, 'd', f.d, 'c', f.c,
    'a', f.a, 'r', f.r, 'p', pid, 'w', ''})
  redis.call('HSET', L.pend, pid, want .. ' ' .. entry[1])
  ledger_index(L, entry[1], f.d, f.c, f.r)
  return {1, 0, entry}
end

local function ledger_post(L, pid, at) return ledger_resolve(L, pid, 'post', at) end
local function ledger_void(L, pid, at) return ledger_resolve(L, pid, 'void', at) end
`;

/** The ledger's keys in the order `L` takes them. All global: see keyspace.ts. */
export const LEDGER_KEYS = [
  "ledgerBalances",
  "ledgerTransfers",
  "ledgerPending",
  "ledgerJournal",
  "ledgerIndex",
] as const;
export type LedgerKey = (typeof LEDGER_KEYS)[number];

export function ledgerKeys(k: Keyspace): Record<LedgerKey, string> {
  return {
    ledgerBalances: k.ledgerBalances,
    ledgerTransfers: k.ledgerTransfers,
    ledgerPending: k.ledgerPending,
    ledgerJournal: k.ledgerJournal,
    ledgerIndex: k.ledgerIndex,
  };
}

/** The Lua line that names the ledger's keys, when they are KEYS[first .. first+4]. */
export function ledgerKeysLua(first: number): string {
  return `local L = {bal = KEYS[${first}], xfer = KEYS[${first + 1}], pend = KEYS[${first + 2}], journal = KEYS[${first + 3}], idx = KEYS[${first + 4}], seen = {}}`;
}

/** How many ARGV a transfer or a hold takes. */
export const TRANSFER_ARGC = 10;

function argv(kind: string, t: TransferInput | HoldInput, at: number): string[] {
  const reason = "reason" in t ? (t.reason ?? "") : "";
  return [
    t.id,
    fingerprint(kind, t),
    kind,
    t.debit,
    t.credit,
    String(t.amountPaisa),
    debitsMustNotExceedCredits(t.debit) ? "1" : "0",
    t.reference ?? "",
    reason,
    String(at),
  ];
}

/** ARGV for `ledger_transfer` (a validated input; `at` the caller's clock, in ms). */
export const transferArgv = (t: TransferInput, at: number) => argv(t.kind, t, at);
/** ARGV for `ledger_hold`. */
export const holdArgv = (t: HoldInput, at: number) => argv("hold", t, at);

type RawEntry = [string, string[]];

/** A journal stream entry (XRANGE's shape) as a JournalEntry. */
export function parseStreamEntry([seq, flat]: RawEntry): JournalEntry {
  const f: Record<string, string> = {};
  for (let j = 0; j + 1 < flat.length; j += 2) f[flat[j]!] = flat[j + 1]!;
  const opt = (key: string, v: string | undefined) => (v ? { [key]: v } : {});
  return journalEntrySchema.parse({
    seq,
    at: Number(seq.slice(0, seq.indexOf("-"))),
    id: f.id,
    kind: f.k,
    debit: f.d,
    credit: f.c,
    amountPaisa: Number(f.a),
    ...opt("reference", f.r),
    ...opt("pendingId", f.p),
    ...opt("reason", f.w),
  });
}

/** A ledger function's reply (see LEDGER_LUA) as a LedgerResult. */
export function parseLedgerReply(reply: unknown): LedgerResult {
  const r = reply as unknown[];
  if (r[0] === 1) {
    return { ok: true, duplicate: r[1] === 1, entry: parseStreamEntry(r[2] as RawEntry) };
  }
  const [, code, a, b, c] = r as [number, string, string, string?, string?];
  switch (code) {
    case "insufficient_funds": {
      const available = Number(b);
      const amount = Number(c);
      return {
        ok: false,
        refusal: refusalSchema.parse({
          code,
          account: a,
          availablePaisa: available,
          amountPaisa: amount,
          shortfallPaisa: amount - available,
        }),
      };
    }
    case "id_conflict":
      return { ok: false, refusal: refusalSchema.parse({ code, id: a }) };
    case "unknown_pending":
      return { ok: false, refusal: refusalSchema.parse({ code, pendingId: a }) };
    case "already_resolved":
      return { ok: false, refusal: refusalSchema.parse({ code, pendingId: a, state: b }) };
    default:
      throw new Error(`unexpected ledger reply ${JSON.stringify(reply).slice(0, 200)}`);
  }
}
