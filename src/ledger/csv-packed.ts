import { isUtf8 } from "node:buffer";
import { toDecimalString } from "../money.ts";
import { isoTimes, JOURNAL_CSV_HEADER, pageCsv } from "./csv.ts";
import { KINDS, unpackEntries } from "./journal-read.ts";
import type { JournalQuery } from "./model.ts";
import { JOURNAL_PAGE_MAX } from "./store.ts";

/**
 * A packed journal page (journal-read.ts: nine fields an entry joined by US) written straight as
 * the export's CSV bytes, with no string, entry or line allocated per entry (h-exp31, issue 31
 * target 5). In the export's worker the string path (the reply decoded, split into entries, the
 * lines joined, then encoded) made about a megabyte of garbage a page: its collector took 29% of
 * the worker's time and the encoding 10%. The bytes are csv.ts pageCsv's exactly: a field's UTF-8
 * bytes are copied, which equals decoding then encoding them once the page is valid UTF-8, and
 * every character CSV or the escapes look at is ASCII (never a byte of a longer character), so
 * testing a byte is testing the character. A page off that path (not valid UTF-8, an amount not
 * plain digits, an unknown kind, a seq not ms-n, an escape the journal's script never writes, a
 * reply of an unexpected shape) goes the string way whole: the same bytes, or the same error.
 */

const US = 0x1f;
const QUOTE = 0x22;
const COMMA = 0x2c;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46);
const hexValue = (c: number) => (c <= 0x39 ? c - 0x30 : c - 0x37);
/** csvCell quotes a field holding a quote, a comma, CR or LF. */
const quoted = (c: number) => c === QUOTE || c === COMMA || c === 0x0d || c === 0x0a;
/** csvText defuses a text starting with = + - @ tab or CR. */
const formula = (c: number) =>
  c === 0x3d || c === 0x2b || c === 0x2d || c === 0x40 || c === 0x09 || c === 0x0d;

/** Anything off the byte path; the page then goes the string way. */
class OffPath extends Error {}

type Range = { from: number; to: number };

/** One page's CSV (a view of the writer's scratch, valid until its next page) and the next seq. */
export interface PackedPage {
  bytes: Uint8Array;
  next?: string;
}

/** Writes CSV bytes into a scratch buffer that grows as needed and is reused page after page. */
class ByteSink {
  out = new Uint8Array(256 * 1024);
  at = 0;
  room(n: number) {
    if (this.at + n <= this.out.length) return;
    const bigger = new Uint8Array(Math.max(this.out.length * 2, this.at + n));
    bigger.set(this.out.subarray(0, this.at));
    this.out = bigger;
  }
  byte(c: number) {
    this.out[this.at++] = c;
  }
  ascii(s: string) {
    for (let i = 0; i < s.length; i++) this.out[this.at++] = s.charCodeAt(i);
  }
  copy(b: Uint8Array, s: number, e: number) {
    this.out.set(b.subarray(s, e), this.at);
    this.at += e - s;
  }
  digits(n: number, width: number) {
    for (let w = width - 1; w >= 0; w--) {
      this.out[this.at + w] = 0x30 + (n % 10);
      n = Math.floor(n / 10);
    }
    this.at += width;
  }
  /** csvCell of bytes [s, e) of b. */
  cell(b: Uint8Array, s: number, e: number) {
    let quote = false;
    for (let i = s; i < e && !quote; i++) quote = quoted(b[i]!);
    if (!quote) return this.copy(b, s, e);
    this.out[this.at++] = QUOTE;
    for (let i = s; i < e; i++) {
      if (b[i] === QUOTE) this.out[this.at++] = QUOTE;
      this.out[this.at++] = b[i]!;
    }
    this.out[this.at++] = QUOTE;
  }
}

/** A plain integer field (an optional '-', 1 to 15 digits): Number() of its text, exactly. */
function integerOf(b: Uint8Array, s: number, e: number): number {
  const neg = b[s] === 0x2d;
  const d = neg ? s + 1 : s;
  if (e - d < 1 || e - d > 15) throw new OffPath();
  let v = 0;
  for (let i = d; i < e; i++) {
    if (!isDigit(b[i]!)) throw new OffPath();
    v = v * 10 + (b[i]! - 0x30);
  }
  return neg ? -v : v;
}

/** A seq's ms (its digits before '-', as unpackEntries reads `at`), checked to be ms-n. */
function seqMs(b: Uint8Array, s: number, e: number): number {
  let i = s;
  while (i < e && isDigit(b[i]!)) i++;
  if (i === s || i - s > 15 || b[i] !== 0x2d || i + 1 >= e) throw new OffPath();
  for (let j = i + 1; j < e; j++) if (!isDigit(b[j]!)) throw new OffPath();
  return integerOf(b, s, i);
}

/**
 * A writer of pages: `page(reply, limit, range)` turns a packed reply of up to limit + 1 entries
 * (the read's one extra tells whether a next page exists) into the CSV of its first `limit`
 * entries within the range, as journalCsvChunks' page would be (csv.ts).
 */
export function packedCsvWriter() {
  const sink = new ByteSink();
  let text = new Uint8Array(1024);
  const starts = new Int32Array(9 * 1024 + 2);
  let minute = Number.NaN;
  let head = "";

  /** csv.ts isoTimes' arithmetic: the minute's head (its own string), then s.mmm and Z. */
  const iso = (ms: number) => {
    const m = Math.floor(ms / 60_000);
    if (m !== minute) {
      minute = m;
      head = new Date(m * 60_000).toISOString().slice(0, 17);
    }
    sink.ascii(head);
    const inMinute = ms - m * 60_000;
    const sec = Math.floor(inMinute / 1000);
    sink.digits(sec, 2);
    sink.byte(0x2e);
    sink.digits(inMinute - sec * 1000, 3);
    sink.byte(0x5a);
  };
  /** csvText of an escaped field [s, e): unescaped as journal-read.ts does, defused, quoted. */
  const freeText = (b: Uint8Array, s: number, e: number) => {
    if (s === e) return;
    if (text.length < e - s + 1) text = new Uint8Array((e - s + 1) * 2);
    let n = 1; // text[0] is kept for the apostrophe
    for (let i = s; i < e; i++) {
      if (b[i] === 0x25 && i + 2 < e && isHex(b[i + 1]!) && isHex(b[i + 2]!)) {
        const v = hexValue(b[i + 1]!) * 16 + hexValue(b[i + 2]!);
        // Above 0x7F the string path makes a character of two bytes; the script never writes it.
        if (v > 0x7f) throw new OffPath();
        text[n++] = v;
        i += 2;
      } else text[n++] = b[i]!;
    }
    text[0] = 0x27;
    sink.cell(text, formula(text[1]!) ? 0 : 1, n);
  };
  const field = (f: number, k: number): [number, number] => [
    starts[f + k]!,
    starts[f + k + 1]! - 1,
  ];
  const kindOk = (b: Buffer, f: number) => {
    const [s, e] = field(f, 2);
    if (!KINDS.has(b.toString("latin1", s, e))) throw new OffPath();
  };

  /** The entry at field f: its line when within the range (kind and amount checked either way). */
  function line(b: Buffer, f: number, range: Range) {
    const [s0, e0] = field(f, 0);
    const ms = seqMs(b, s0, e0);
    kindOk(b, f);
    const paisa = integerOf(b, ...field(f, 5));
    if (ms < range.from || ms >= range.to) return;
    sink.room(2 * (field(f, 8)[1] - s0) + 96);
    sink.copy(b, s0, e0);
    sink.byte(COMMA);
    iso(ms);
    sink.byte(COMMA);
    sink.cell(b, ...field(f, 1));
    for (const k of [2, 3, 4]) {
      sink.byte(COMMA);
      sink.copy(b, ...field(f, k));
    }
    sink.byte(COMMA);
    sink.ascii(toDecimalString(paisa));
    sink.byte(COMMA);
    freeText(b, ...field(f, 6));
    sink.byte(COMMA);
    sink.cell(b, ...field(f, 7));
    sink.byte(COMMA);
    freeText(b, ...field(f, 8));
    sink.byte(0x0d);
    sink.byte(0x0a);
  }

  function bytePage(b: Buffer, limit: number, range: Range): PackedPage {
    sink.at = 0;
    if (b.length === 0) return { bytes: sink.out.subarray(0, 0) };
    if (!isUtf8(b)) throw new OffPath();
    let n = 0;
    starts[n++] = 0;
    for (let i = b.indexOf(US); i !== -1; i = b.indexOf(US, i + 1)) {
      if (n >= starts.length - 1) throw new OffPath();
      starts[n++] = i + 1;
    }
    starts[n] = b.length + 1; // one past the end closes the last field
    const entries = n / 9;
    if (n % 9 !== 0 || entries > limit + 1) throw new OffPath();
    for (let e = 0; e < Math.min(entries, limit); e++) line(b, e * 9, range);
    if (entries <= limit) return { bytes: sink.out.subarray(0, sink.at) };
    // The extra entry (the next page's first) is checked as unpackEntries checks it.
    kindOk(b, limit * 9);
    integerOf(b, ...field(limit * 9, 5));
    const [s, e] = field((limit - 1) * 9, 0);
    return { bytes: sink.out.subarray(0, sink.at), next: b.toString("latin1", s, e) };
  }

  let offPath = 0;
  return {
    /** Pages that went the string way (tests, the bench: the byte path is the rule). */
    offPath: () => offPath,
    page(reply: Buffer, limit: number, range: Range): PackedPage {
      try {
        return bytePage(reply, limit, range);
      } catch (err) {
        if (!(err instanceof OffPath)) throw err;
      }
      offPath += 1;
      const all = unpackEntries(reply.toString("utf8"));
      const entries = all.slice(0, limit);
      const bytes = new TextEncoder().encode(pageCsv(entries, range, isoTimes()));
      return all.length > limit ? { bytes, next: entries.at(-1)!.seq } : { bytes };
    },
  };
}

/**
 * The journal for [from, to) as CSV, as journalCsvChunks (csv.ts) writes it, from packed pages
 * (redis-reads.ts journalPackedReader), the next page asked for while this one is written. Each
 * page's chunk is a view the next one overwrites: a reader copies it before asking for more.
 */
export async function* journalCsvBytes(
  read: (q: JournalQuery) => Promise<Buffer>,
  range: Range,
  writer = packedCsvWriter(),
): AsyncGenerator<Uint8Array | string> {
  yield `${JOURNAL_CSV_HEADER.join(",")}\r\n`;
  const limit = JOURNAL_PAGE_MAX;
  const readAfter = (after?: string) => read({ ...range, limit, ...(after ? { after } : {}) });
  let pending = readAfter();
  for (;;) {
    const page = writer.page(await pending, limit, range);
    if (page.next) {
      pending = readAfter(page.next);
      // A reader that stops early (a closed download) leaves it unawaited: not an unhandled error.
      pending.catch(() => undefined);
    }
    if (page.bytes.length > 0) yield page.bytes;
    if (!page.next) return;
  }
}
