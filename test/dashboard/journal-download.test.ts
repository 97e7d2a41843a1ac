import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journalCsvOffThread } from "../../src/ledger/csv-off-thread.ts";
import {
  account,
  exportJournalCsv,
  JOURNAL_PAGE_MAX,
  type LedgerStore,
} from "../../src/ledger/index.ts";
import { ADMIN, type DashboardHarness, loggedIn, startDashboard } from "../support/dashboard.ts";
import { REDIS_URL } from "../support/redis.ts";

/**
 * The back office's journal download (review s24-a item 4) is streamed page by page, as the
 * metrics listener's is, never built whole in the main process: its bytes are the export's
 * exactly (here and from the worker thread), and a journal that fails halfway cuts the download,
 * so it never ends as a shorter file that looks complete.
 */

let h: DashboardHarness;
let range: { from: number; to: number };
let query: string;
beforeAll(async () => {
  h = await startDashboard();
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  range = { from: today, to: today + 86_400_000 };
  query = `from=${day(range.from)}&to=${day(range.to)}`;
  // More than a page, with text a spreadsheet would run and a quoted cell.
  for (let i = 0; i < JOURNAL_PAGE_MAX + 60; i++) {
    const reason = i % 50 === 0 ? `=cmd "quoted", line ${i}` : undefined;
    await h.ledger.transfer({
      id: `dl-${i}`,
      debit: account.merchant.funding,
      credit: account.customer(8_000 + (i % 3)),
      amountPaisa: 100 + i,
      kind: reason ? "adjustment" : "credit",
      ...(reason ? { reason } : {}),
    });
  }
});
afterAll(async () => {
  await h?.close();
});

describe("the back office's journal download", () => {
  it("is the export byte for byte, over several pages, here and from the worker thread", async () => {
    const c = await loggedIn(h, ADMIN, "download-test/1");
    const expected = await exportJournalCsv(h.ledger, range);
    expect(expected.trimEnd().split("\r\n").length).toBeGreaterThan(JOURNAL_PAGE_MAX + 1);
    const here = await c.get(`/dashboard/books/journal.csv?${query}`);
    expect(here.status).toBe(200);
    expect(here.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await here.text()).toBe(expected);
    h.deps.journalCsv = (r) =>
      journalCsvOffThread({ redis: { url: REDIS_URL }, prefix: h.deps.prefix }, r);
    try {
      const worker = await c.get(`/dashboard/books/journal.csv?${query}`);
      expect(worker.status).toBe(200);
      expect(await worker.text()).toBe(expected);
    } finally {
      delete h.deps.journalCsv;
    }
  });

  it("a journal failing after its first page cuts the download: never a clean, shorter file", async () => {
    const c = await loggedIn(h, ADMIN, "download-test/1");
    const ledger = h.deps.ledger;
    // The first page reads; the next one fails, as a Redis going away halfway would.
    const failing: LedgerStore = {
      ...ledger,
      journal: (q) =>
        q?.after === undefined
          ? ledger.journal(q)
          : Promise.reject(new Error("the journal's second page failed")),
    };
    h.deps.ledger = failing;
    try {
      // Streamed: the 200 and the first page go out before the failure, which then cuts the
      // connection (the request or its body fails; undici may see the cut before the headers
      // settle). Built whole, the export would have answered a plain 500 instead.
      const got = c
        .get(`/dashboard/books/journal.csv?${query}`)
        .then(async (res) => `${res.status}: ${(await res.text()).slice(0, 80)}`);
      await expect(got).rejects.toThrow();
    } finally {
      h.deps.ledger = ledger;
    }
  });
});
