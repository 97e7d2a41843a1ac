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
 * Entries come as one string of fields joined by US (\x1f), nine an entry: seq id k d c a r p w.
 */
const READ = `
local function esc(s)
  if not string.find(s, '[%%\\30\\31]') then return s end
  return (string.gsub(s, '[%%\\30\\31]', function(c) return string.format('%%%02X', string.byte(c)) end))
end
-- Appends an entry's nine fields to out (one concat for the whole reply, no string per entry).
local function pack(out, e)
  local f, n = e[2], #out
  out[n + 1] = e[1]; out[n + 2] = f[2]; out[n + 3] = f[4]; out[n + 4] = f[6]; out[n + 5] = f[8]
  out[n + 6] = f[10]; out[n + 7] = esc(f[12]); out[n + 8] = f[14]; out[n + 9] = esc(f[16])
end
local function at(out, sid)
  local e = redis.call('XRANGE', KEYS[1], sid, sid)[1]
  if e then pack(out, e) end
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
    pack(out, e)
  end
else
  local members = redis.call('ZRANGEBYLEX', KEYS[2], ARGV[2], ARGV[3], 'LIMIT', 0, ARGV[4])
  for _, s in ipairs(seqs_of(members, mode == 'account')) do at(out, s) end
  if mode == 'account' then
    local prev = redis.call('ZREVRANGEBYLEX', KEYS[2], ARGV[5], ARGV[6], 'LIMIT', 0, 1)[1] or ''
    return {table.concat(members, '\\30'), prev, table.concat(out, '\\31')}
  end
end
return table.concat(out, '\\31')
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

/** The entry kinds a packed entry may name (a closed list: anything else is refused). */
export const KINDS = new Set<string>(
  journalEntrySchema.shape.kind.options.flatMap((o) => o.options),
);

/** A packed reply as entries, nine fields each, checked lightly: our own scripts wrote them. */
export function unpackEntries(reply: string): JournalEntry[] {
  if (reply === "") return [];
  const f = reply.split("\x1f");
  if (f.length % 9 !== 0) throw new Error(`unexpected ledger journal reply ${reply.slice(0, 200)}`);
  const out: JournalEntry[] = [];
  for (let i = 0; i < f.length; i += 9) {
    const seq = f[i]!;
    const kind = f[i + 2]!;
    const amountPaisa = Number(f[i + 5]);
    if (!KINDS.has(kind) || !Number.isSafeInteger(amountPaisa)) {
      throw new Error(`unexpected ledger journal entry ${f.slice(i, i + 9).join(" ")}`);
    }
    const e: JournalEntry = {
      seq,
      at: Number(seq.slice(0, seq.indexOf("-"))),
      id: f[i + 1]!,
      kind: kind as JournalEntry["kind"],
      debit: f[i + 3] as AccountId,
      credit: f[i + 4] as AccountId,
      amountPaisa,
    };
    if (f[i + 6]) e.reference = unescapeText(f[i + 6]!);
    if (f[i + 7]) e.pendingId = f[i + 7]!;
    if (f[i + 8]) e.reason = unescapeText(f[i + 8]!);
    out.push(e);
  }
  return out;
}
