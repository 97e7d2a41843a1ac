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
 *   ARGV 'ids', seq...               -> the entries at these seqs, in that order ('' when missing)
 * Reply: entries joined by RS (\x1e), each "seq US id US k US d US c US a US r US p US w".
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
local out = {}
if ARGV[1] == 'range' then
  for _, e in ipairs(redis.call('XRANGE', KEYS[1], ARGV[2], ARGV[3], 'COUNT', ARGV[4])) do
    out[#out + 1] = pack(e)
  end
else
  for j = 2, #ARGV do
    local e = redis.call('XRANGE', KEYS[1], ARGV[j], ARGV[j])[1]
    if e then out[#out + 1] = pack(e) else out[#out + 1] = '' end
  end
end
return table.concat(out, '\\30')
`;

export const journalRead = luaScript<"journal", string>("raLedgerJournalRead", ["journal"], READ);

const unescape = (s: string) =>
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
  if (r) e.reference = unescape(r);
  if (p) e.pendingId = p;
  if (w) e.reason = unescape(w);
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
