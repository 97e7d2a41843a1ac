import { html } from "hono/html";
import { account, type JournalEntry, type LedgerStore } from "../../ledger/index.ts";
import { type Fragment, rs } from "../html.ts";

/**
 * The float and the daily sales over the last days, from the journal, drawn as inline SVG on the
 * server (the CSP allows no script; SVG's presentation attributes are not styles). Days are UTC.
 *  - Sales of a day: the holds posted to merchant:sales that day (what customers paid for orders
 *    that succeeded).
 *  - The float at the end of a day: the books' float now (debit-normal, as /books shows it),
 *    walked back through the posted entries that touched merchant:float after that day.
 */

export const DAY_MS = 86_400_000;
const MAX_PAGES = 50;

export interface DayPoint {
  day: number;
  salesPaisa: number;
  floatPaisa: number;
}

/** The change a posted entry makes to the float as the books see it (debits − credits). */
function floatChange(e: JournalEntry): number {
  if (e.kind === "hold" || e.kind === "void") return 0;
  const float = account.merchant.float;
  if (e.debit === float) return e.amountPaisa;
  if (e.credit === float) return -e.amountPaisa;
  return 0;
}

export async function dailySeries(
  ledger: LedgerStore,
  now: number,
  days: number,
): Promise<{ points: DayPoint[]; complete: boolean }> {
  const first = Math.floor(now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
  const sales = new Array<number>(days).fill(0);
  const change = new Array<number>(days).fill(0);
  let after: string | undefined;
  let complete = false;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const page = await ledger.journal({ from: first, ...(after ? { after } : {}), limit: 1_000 });
    for (const e of page.entries) {
      const i = Math.min(days - 1, Math.floor((e.at - first) / DAY_MS));
      if (i < 0) continue;
      if (e.kind === "post" && e.credit === account.merchant.sales) sales[i]! += e.amountPaisa;
      change[i]! += floatChange(e);
    }
    if (!page.next) {
      complete = true;
      break;
    }
    after = page.next;
  }
  let float = -(await ledger.balance(account.merchant.float)).postedPaisa;
  const points: DayPoint[] = [];
  for (let i = days - 1; i >= 0; i--) {
    points.unshift({ day: first + i * DAY_MS, salesPaisa: sales[i]!, floatPaisa: float });
    float -= change[i]!;
  }
  return { points, complete };
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
