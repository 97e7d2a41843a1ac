import { luaScript } from "../redis/scripts.ts";
import type { AccountId } from "./chart.ts";
import { type JournalEntry, journalEntrySchema } from "./model.ts";

/**
 * Journal reads in bulk (the export, a statement's page): the entries packed by Redis into ONE
 * string, instead of XRANGE's reply of 17 strings an entry. Measured (bench/dashboard-search.ts,
 * 1,000,000 entries): the client's parsing of XRANGE's nested reply and a zod parse per entry cost
 * ~10 µs an entry, which caps an export near 100,000 lines a second on a free core; packed, the
 * client splits one string. The fields are our own scripts' (ledger_book writes them, always in
 * the order id k d c a r p w); the free text ones (r, w) have '%', RS and US escaped as %XX.
 *
 *   ARGV 'range', start, end, count  -> XRANGE's entries in [start, end], at most count
 *   ARGV 'ref', min, max, count      -> the entries the index names in [min, max] (a reference's)
 *   ARGV 'account', min, max, count, below, lowest
 *        -> {the index members in [min, max] joined by RS, the member just below the page
 *           (ZREVRANGEBYLEX below lowest LIMIT 0 1) or '', their entries}: a statement's page in
 *           one round trip and one snapshot (account-index.ts)
 * Entries are joined by RS (\x1e), each "seq US id US k US d US c US a US r US p US w".
 */
const READ = `
local function esc(s)
  if not string.find(s, '[%%\\30\\31]') then return s end
  return (string.gsub(s, '[%%\\30\\31]', function(c) return string.format('%%%02X', string.byte(c)) end))
end
local function pack(e)
  local f = e[2]
  return table.concat({e[1], f[2], f[4], f[6], f[8], f[10], esc(f[12]), f[14], esc(f[16])}, '\\31')
end
local function at(sid)
  local e = redis.call('XRANGE', KEYS[1], sid, sid)[1]
  if e then return pack(e) end
  return ''
end
-- The seq a member names: after its last '|' (a reference's) or its third-last (an account's).
local function seqs_of(members, account)
  local out = {}
  for i, m in ipairs(members) do
    local s = m
    if account then s = string.match(m, '|([%d-]+)|[^|]*|[^|]*$') else s = string.match(m, '|([%d-]+)$') end
    local dash = string.find(s, '-', 1, true)
    out[i] = string.format('%.0f-%.0f', tonumber(string.sub(s, 1, dash - 1)), tonumber(string.sub(s, dash + 1)))
  end
  return out
end
local out = {}
local mode = ARGV[1]
if mode == 'range' then
  for _, e in ipairs(redis.call('XRANGE', KEYS[1], ARGV[2], ARGV[3], 'COUNT', ARGV[4])) do
    out[#out + 1] = pack(e)
  end
else
  local members = redis.call('ZRANGEBYLEX', KEYS[2], ARGV[2], ARGV[3], 'LIMIT', 0, ARGV[4])
  for _, s in ipairs(seqs_of(members, mode == 'account')) do out[#out + 1] = at(s) end
  if mode == 'account' then
    local prev = redis.call('ZREVRANGEBYLEX', KEYS[2], ARGV[5], ARGV[6], 'LIMIT', 0, 1)[1] or ''
    return {table.concat(members, '\\30'), prev, table.concat(out, '\\30')}
  end
end
return table.concat(out, '\\30')
`;

export const journalRead = luaScript<"journal" | "index", unknown>(
  "raLedgerJournalRead",
  ["journal", "index"],
  READ,
);

const unescapeText = (s: string) =>
  s.includes("%")
    ? s.replace(/%([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
    : s;

const KINDS = new Set<string>(journalEntrySchema.shape.kind.options.flatMap((o) => o.options));

/** One packed entry as a JournalEntry (or undefined for ''), checked lightly: our own writes. */
export function unpackEntry(packed: string): JournalEntry | undefined {
  if (packed === "") return undefined;
  const [seq, id, kind, debit, credit, amount, r, p, w] = packed.split("\x1f") as string[];
  const amountPaisa = Number(amount);
  if (w === undefined || !KINDS.has(kind!) || !Number.isSafeInteger(amountPaisa)) {
    throw new Error(`unexpected ledger journal entry ${packed.slice(0, 200)}`);
  }
  const e: JournalEntry = {
    seq: seq!,
    at: Number(seq!.slice(0, seq!.indexOf("-"))),
    id: id!,
    kind: kind as JournalEntry["kind"],
    debit: debit as AccountId,
    credit: credit as AccountId,
    amountPaisa,
  };
  if (r) e.reference = unescapeText(r);
  if (p) e.pendingId = p;
  if (w) e.reason = unescapeText(w);
  return e;
}

/** A packed reply as entries ('' entries, missing ones, left out). */
export function unpackEntries(reply: string): JournalEntry[] {
  if (reply === "") return [];
  const out: JournalEntry[] = [];
  for (const packed of reply.split("\x1e")) {
    const e = unpackEntry(packed);
    if (e) out.push(e);
  }
  return out;
}
