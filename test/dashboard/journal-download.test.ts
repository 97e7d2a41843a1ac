import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuditLog } from "../../src/dashboard/audit.ts";
import { dashboardKeys } from "../../src/dashboard/keys.ts";
import { journalCsvOffThread } from "../../src/ledger/csv-off-thread.ts";
import {
  account,
  exportJournalCsv,
  JOURNAL_PAGE_MAX,
  journalCsvChunks,
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
    // The server's first sight of the browser leaving: its socket's end (a FIN) or error (a
    // reset), before the socket's close (the response's cancel) is emitted, a turn of the loop on.
    let seen = () => {};
    const left = new Promise<void>((resolve) => {
      seen = resolve;
    });
    let response: ServerResponse | undefined;
    const watch = (req: IncomingMessage, res: ServerResponse) => {
      if (!req.url?.startsWith("/dashboard/books/journal.csv")) return;
      response = res;
      for (const event of ["end", "error", "close"]) req.socket.once(event, seen);
    };
    h.server.on("request", watch);
    // The second page is read before the browser leaves, then handed over only once the server
    // has seen it leave: it and the end then come without waiting for anything (before: read
    // only at the abort, it raced the server's sight of it, and the download ran whole under
    // load, 4 runs in 20, the test spinning until its timeout).
    let secondRead: Promise<unknown> | undefined;
    h.deps.ledger = {
      ...ledger,
      journal: async (q) => {
        const read = ledger.journal(q);
        if (q?.after === undefined) return read;
        secondRead = read;
        const page = await read;
        await left;
        return page;
      },
    };
    // The header and the first page, as the export makes them: what the browser takes whole.
    const made = journalCsvChunks(ledger, range);
    const firstPage = `${(await made.next()).value}${(await made.next()).value}`;
    await made.return(undefined);
    const log = createAuditLog(h.deps.kv, dashboardKeys(h.deps.prefix));
    const ended = async () => {
      const all = await log.all();
      return {
        failed: all.filter((e) => e.action === "export_failed"),
        whole: all.filter((e) => e.action === "export").length,
      };
    };
    const before = await ended();
    try {
      const browser = new AbortController();
      const res = await fetch(`${h.url}/dashboard/books/journal.csv?${query}`, {
        headers: { cookie: c.cookie ?? "" },
        signal: browser.signal,
      });
      expect(res.status).toBe(200);
      // The browser takes the first page whole, and leaves once the server, its page written (the
      // response drained), is asking for the next one, read already: a stream pulling ahead on
      // its own would then reach the end before the server wrote the last page.
      const reader = res.body?.getReader();
      let got = 0;
      while (got < Buffer.byteLength(firstPage)) {
        const read = await reader?.read();
        if (!read || read.done) throw new Error("the download ended before its first page");
        got += read.value.length;
      }
      while (response?.writableNeedDrain !== false) await new Promise((r) => setImmediate(r));
      await secondRead;
      browser.abort();
      await left;
      // The entry is written when the server's cancel runs: wait for an end, however long.
      let after = await ended();
      while (after.failed.length === before.failed.length && after.whole === before.whole) {
        await new Promise((r) => setImmediate(r));
        after = await ended();
      }
      expect(after.whole).toBe(before.whole);
      expect(after.failed[0]?.detail).toMatch(/^journal .*: the client left before the end$/);
    } finally {
      h.server.off("request", watch);
      h.deps.ledger = ledger;
    }
  });
});
