import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuditLog } from "../../src/dashboard/audit.ts";
import { dashboardKeys } from "../../src/dashboard/keys.ts";
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
 * so it never ends as a shorter file that looks complete. The audit log says which: started before
 * the first byte, then an export only for a download that ended whole, a failed one for a cut
 * (before: audited as an export before the first byte, whatever happened after).
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

/** The downloads' audit entries written while `run` ran, oldest first (the log is newest first). */
async function auditedDuring(run: () => Promise<void>) {
  const log = createAuditLog(h.deps.kv, dashboardKeys(h.deps.prefix));
  // The harness's clock stands still: the logins' entries (another list) sort with these.
  const exports = async () => (await log.all()).filter((e) => e.action.startsWith("export"));
  const before = (await exports()).length;
  await run();
  const all = await exports();
  return all
    .slice(0, all.length - before)
    .reverse()
    .map((e) => ({ action: e.action, detail: e.detail ?? "" }));
}

describe("the back office's journal download", () => {
  it("is the export byte for byte, over several pages, here and from the worker thread", async () => {
    const c = await loggedIn(h, ADMIN, "download-test/1");
    const expected = await exportJournalCsv(h.ledger, range);
    expect(expected.trimEnd().split("\r\n").length).toBeGreaterThan(JOURNAL_PAGE_MAX + 1);
    const audited = await auditedDuring(async () => {
      const here = await c.get(`/dashboard/books/journal.csv?${query}`);
      expect(here.status).toBe(200);
      expect(here.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(await here.text()).toBe(expected);
    });
    // Whole: started, then the export (recorded before the last byte went out).
    expect(audited.map((e) => e.action)).toEqual(["export_started", "export"]);
    expect(audited[1]?.detail).toMatch(/^journal \d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}$/);
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
      const audited = await auditedDuring(async () => {
        const got = c
          .get(`/dashboard/books/journal.csv?${query}`)
          .then(async (res) => `${res.status}: ${(await res.text()).slice(0, 80)}`);
        await expect(got).rejects.toThrow();
      });
      // Not an export: started, then failed with why (recorded before the connection was cut).
      expect(audited.map((e) => e.action)).toEqual(["export_started", "export_failed"]);
      expect(audited[1]?.detail).toContain("the journal's second page failed");
    } finally {
      h.deps.ledger = ledger;
    }
  });

  it("a browser that leaves halfway is audited as a failed download, not an export", async () => {
    const c = await loggedIn(h, ADMIN, "download-test/1");
    const ledger = h.deps.ledger;
    // The second page waits until the browser has left (then reads, too late for anyone).
    let left = () => {};
    const gone = new Promise<void>((resolve) => {
      left = resolve;
    });
    h.deps.ledger = {
      ...ledger,
      journal: async (q) => {
        if (q?.after !== undefined) await gone;
        return ledger.journal(q);
      },
    };
    const log = createAuditLog(h.deps.kv, dashboardKeys(h.deps.prefix));
    const failedOnes = async () => (await log.all()).filter((e) => e.action === "export_failed");
    const whole = async () => (await log.all()).filter((e) => e.action === "export").length;
    const before = (await failedOnes()).length;
    const wholeBefore = await whole();
    try {
      const browser = new AbortController();
      const res = await fetch(`${h.url}/dashboard/books/journal.csv?${query}`, {
        headers: { cookie: c.cookie ?? "" },
        signal: browser.signal,
      });
      expect(res.status).toBe(200);
      const reader = res.body?.getReader();
      expect((await reader?.read())?.done).toBe(false); // the first page arrived
      browser.abort();
      left();
      // The server sees the close on its own time: wait for the entry, however long that takes.
      while ((await failedOnes()).length === before) await new Promise((r) => setImmediate(r));
      const [newest] = await failedOnes();
      expect(newest?.detail).toMatch(/^journal .*: the client left before the end$/);
      expect(await whole()).toBe(wholeBefore);
    } finally {
      h.deps.ledger = ledger;
    }
  });
});
