import { html } from "hono/html";
import { account, type JournalEntry, type LedgerStore } from "../../ledger/index.ts";
import { type Fragment, rs } from "../html.ts";

/**
 * The float and the daily sales over the last days, from the journal, drawn as inline SVG on the
 * server (the CSP allows no script; SVG's presentation attributes are not styles). Days are UTC.
 *  - Sales of a day: the holds posted to merchant:sales that day (what customers paid for orders
 *    that succeeded).
 *  - The float at the end of a day: the books' float now (debit-normal, as /books shows it),
 *    walked back through the posted entries that touched merchant:float after that day. The days
 *    are read newest first, so a read stopped at its cap leaves the oldest days out, whole.
 */

export const DAY_MS = 86_400_000;
/** The most journal entries one drawing reads (50 pages of 1,000). */
export const CHART_MAX_ENTRIES = 50_000;

export interface DayPoint {
  day: number;
  salesPaisa: number;
  floatPaisa: number;
}

export interface DailySeries {
  /** The days read in full, oldest first, ending today. */
  points: DayPoint[];
  /** The older days of the range left out: their journal was past the read's cap. */
  leftOutDays: number;
}

/** The change a posted entry makes to the float as the books see it (debits − credits). */
function floatChange(e: JournalEntry): number {
  if (e.kind === "hold" || e.kind === "void") return 0;
  const float = account.merchant.float;
  if (e.debit === float) return e.amountPaisa;
  if (e.credit === float) return -e.amountPaisa;
  return 0;
}

/** One day's sales and float change, read whole; null when the budget ran out before its end. */
async function readDay(
  ledger: LedgerStore,
  from: number,
  to: number | undefined,
  budget: { entries: number },
): Promise<{ sales: number; change: number } | null> {
  let sales = 0;
  let change = 0;
  let after: string | undefined;
  for (;;) {
    if (budget.entries <= 0) return null;
    const limit = Math.min(1_000, budget.entries);
    const page = await ledger.journal({
      from,
      ...(to === undefined ? {} : { to }),
      ...(after ? { after } : {}),
      limit,
    });
    budget.entries -= page.entries.length;
    for (const e of page.entries) {
      if (e.kind === "post" && e.credit === account.merchant.sales) sales += e.amountPaisa;
      change += floatChange(e);
    }
    if (!page.next) return { sales, change };
    after = page.next;
  }
}

/**
 * The last `days` days, read newest first one whole day at a time (today's read has no end, so it
 * takes what was booked after today too), at most `maxEntries` entries: the walk back from the
 * float now is exact for every day reached, and the days past the cap are left out, never shown
 * with figures that miss the entries not read (s24-a item 3).
 */
export async function dailySeries(
  ledger: LedgerStore,
  now: number,
  days: number,
  maxEntries = CHART_MAX_ENTRIES,
): Promise<DailySeries> {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const budget = { entries: maxEntries };
  const read: Array<{ day: number; sales: number; change: number }> = [];
  for (let i = 0; i < days; i++) {
    const day = today - i * DAY_MS;
    const got = await readDay(ledger, day, i === 0 ? undefined : day + DAY_MS, budget);
    if (!got) break;
    read.push({ day, ...got });
  }
  let float = -(await ledger.balance(account.merchant.float)).postedPaisa;
  const points: DayPoint[] = [];
  for (const r of read) {
    points.unshift({ day: r.day, salesPaisa: r.sales, floatPaisa: float });
    float -= r.change;
  }
  return { points, leftOutDays: days - read.length };
}

const W = 720;
const H = 220;
const PAD = 40;

/** Bars of the daily sales and a line of the float, each on its own scale, with their maxima. */
export function chartSvg(points: readonly DayPoint[]): Fragment {
  const n = Math.max(1, points.length);
  const step = (W - 2 * PAD) / n;
  const maxSales = Math.max(1, ...points.map((p) => p.salesPaisa));
  const floats = points.map((p) => p.floatPaisa);
  const lo = Math.min(0, ...floats);
  const hi = Math.max(1, ...floats);
  const y = (v: number, min: number, max: number) =>
    H - PAD - ((v - min) / (max - min || 1)) * (H - 2 * PAD);
  const bars = points.map((p, i) => {
    const top = y(p.salesPaisa, 0, maxSales);
    return html`<rect x="${(PAD + i * step + 1).toFixed(1)}" y="${top.toFixed(1)}" width="${Math.max(1, step - 2).toFixed(1)}" height="${(H - PAD - top).toFixed(1)}" fill="#9cc3e6"><title>${new Date(p.day).toISOString().slice(0, 10)}: sales ${rs(p.salesPaisa)}, float ${rs(p.floatPaisa)}</title></rect>`;
  });
  const line = points
    .map(
      (p, i) => `${(PAD + i * step + step / 2).toFixed(1)},${y(p.floatPaisa, lo, hi).toFixed(1)}`,
    )
    .join(" ");
  const first = points[0] ? new Date(points[0].day).toISOString().slice(0, 10) : "";
  const last = points.at(-1) ? new Date(points.at(-1)!.day).toISOString().slice(0, 10) : "";
  return html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="Daily sales (bars) and the float at the end of each day (line)">
<line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" stroke="#555"/>
${bars}
<polyline points="${line}" fill="none" stroke="#c0392b" stroke-width="2"/>
<text x="${PAD}" y="${H - PAD + 16}" font-size="11">${first}</text>
<text x="${W - PAD}" y="${H - PAD + 16}" font-size="11" text-anchor="end">${last}</text>
<text x="${PAD}" y="14" font-size="11" fill="#2c6ea3">sales, highest ${rs(maxSales === 1 ? 0 : maxSales)} a day</text>
<text x="${W - PAD}" y="14" font-size="11" fill="#c0392b" text-anchor="end">float ${rs(Math.min(...floats))} to ${rs(Math.max(...floats))}</text>
</svg>`;
}
