import type { Hono } from "hono";
import { html } from "hono/html";
import type { BooksReport } from "../../books/index.ts";
import { raisedAlerts } from "../../books/raised.ts";
import { csvDownload } from "../../http/csv-download.ts";
import { journalRangeSchema } from "../../http/journal-range.ts";
import { journalCsvChunks } from "../../ledger/index.ts";
import { allow, audit, authenticate } from "../auth.ts";
import { type Fragment, facts, notice, POSTED, page, path, rs, time } from "../html.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";
import { floatMoveRoutes, floatMovesSection } from "./float-moves.ts";

/**
 * The books for admins: the same report as /books and GET /books on the metrics port (the trial
 * balance's sums, what is owed to customers and agents, fees, margin, the float expected against
 * the aggregator's), and the journal as CSV for a date range, written by src/ledger/csv.ts and
 * streamed as the metrics listener streams it (src/http/csv-download.ts: a failure halfway cuts
 * the download), recorded in the audit log.
 */

const yesNo = (v: boolean | null) => (v === null ? "—" : v ? "yes" : "no");

/**
 * Every alert standing now, one item each (not only the last check's verdict), in /books's words
 * when the composition root handed them in.
 */
function raisedView(r: BooksReport, words: DashboardParts["deps"]["booksAlertLines"]): Fragment {
  const [head, ...items] = words
    ? words(r)
    : ["Alerts standing now:", ...raisedAlerts(r).map((a) => a.kind)];
  if (items.length === 0) return html`<h2>Alerts</h2><p class="empty">${head}</p>`;
  return html`<h2>Alerts</h2><p>${head}</p><ul>${items.map((line) => html`<li>${line}</li>`)}</ul>`;
}

/** Complaint refunds, and those whose figures the report could not take whole (scan.ts). */
function refundRows(r: BooksReport): Array<readonly [string, string]> {
  const c = r.complaintRefunds;
  const rows: Array<readonly [string, string]> = [
    ["Complaint refunds", `${c.refunds} (${rs(c.paisa)}, fees in it ${rs(c.feePaisa)})`],
  ];
  if (c.orderUnread.refunds > 0) {
    rows.push([
      "Refunds whose order could not be read",
      `${c.orderUnread.refunds} (${rs(c.orderUnread.paisa)}): their fee share is unknown and still in fee income (at most ${rs(c.orderUnread.paisa)})`,
    ]);
  }
  if (c.outOfMargin.refunds > 0) {
    rows.push([
      "Refunds left out of the margin",
      `${c.outOfMargin.refunds} (${rs(c.outOfMargin.paisa)}): their orders were booked with no aggregator debit, so are not in the margin either`,
    ]);
  }
  return rows;
}

function reportView(r: BooksReport, words: DashboardParts["deps"]["booksAlertLines"]): Fragment {
  return html`${raisedView(r, words)}<h2>Trial balance</h2>${facts([
    ["Balanced", r.balanced ? "yes" : `no (${r.problems} problems)`],
    ["Sum of posted balances", rs(r.postedSumPaisa)],
    ["Sum of pending balances", rs(r.pendingSumPaisa)],
    [
      `Customers owed (${POSTED})`,
      `${rs(r.customers.balancePaisa)} over ${r.customers.accounts}, of which held for orders in flight ${rs(r.customers.heldPaisa)}`,
    ],
    [
      `Agents owed (${POSTED})`,
      `${rs(r.agents.balancePaisa)} over ${r.agents.accounts}, of which held for orders in flight ${rs(r.agents.heldPaisa)}`,
    ],
    ["Fee income", rs(r.feeIncomePaisa)],
    ["Margin", `${rs(r.margin.marginPaisa)} over ${r.margin.orders} orders`],
    ["Inferred debits", `${r.inferredDebits.orders} (${rs(r.inferredDebits.paisa)})`],
    ...refundRows(r),
  ])}
<h2>Float at the aggregator</h2>${facts([
    ["In the books", rs(r.float.booksPaisa)],
    ["Debits not booked yet", rs(r.float.inFlightPaisa)],
    ["Expected", rs(r.float.expectedPaisa)],
    ["The aggregator reports", rs(r.float.reportedPaisa)],
    ["Drift", rs(r.float.driftPaisa)],
    ["Within tolerance", yesNo(r.float.withinTolerance)],
    ["Orders whose debit is unknown", r.float.unknownDebits],
    ["Last check", r.lastCheck ? `${time(r.lastCheck.at)}: ${r.lastCheck.verdict}` : "never"],
  ])}<p class="empty">As of ${time(r.at)}.</p>`;
}

function journalForm(from = "", to = ""): Fragment {
  return html`<form method="get" action="${path("/books/journal.csv")}">
<label>From <input type="date" name="from" value="${from}" required></label>
<label>To (not included) <input type="date" name="to" value="${to}" required></label>
<button type="submit">Download CSV</button>
</form>`;
}

export function booksRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  const admin = [authenticate(parts), allow("admin")] as const;

  app.get("/books", ...admin, async (c) => {
    const report = await parts.deps.books.report();
    const viewer = c.get("viewer");
    const moves = await floatMovesSection(parts, viewer);
    const body = html`${reportView(report, parts.deps.booksAlertLines)}${moves}`;
    return c.html(page("The books", body, viewer));
  });
  // Refills and corrections of the float, proposed and approved here (h-float).
  floatMoveRoutes(app, parts);

  app.get("/books/journal", ...admin, (c) =>
    c.html(page("The journal as CSV", journalForm(), c.get("viewer"))),
  );

  app.get("/books/journal.csv", ...admin, async (c) => {
    const given = { from: c.req.query("from") ?? "", to: c.req.query("to") ?? "" };
    const range = journalRangeSchema.safeParse(given);
    if (!range.success) {
      const why = range.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      const form = journalForm(given.from.slice(0, 30), given.to.slice(0, 30));
      return c.html(
        page("The journal as CSV", html`${notice(why, "error")}${form}`, c.get("viewer")),
        400,
      );
    }
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const span = `${day(range.data.from)}..${day(range.data.to)}`;
    // Audited before the first byte as started (a download cut halfway was still asked for, and
    // bytes went out), then at its end as an export only when it ended whole, else as failed: a
    // cut download is never in the log as an export.
    const viewer = c.get("viewer");
    await audit(parts, c, viewer, "export_started", `journal ${span}`);
    const { journalCsv } = parts.deps;
    const chunks = journalCsv
      ? journalCsv(range.data)
      : journalCsvChunks(parts.deps.ledger, range.data);
    return csvDownload(c, chunks, {
      name: `journal-${day(range.data.from)}.csv`,
      logger: parts.deps.logger,
      fields: { from: range.data.from, to: range.data.to },
      ended: (end) =>
        end.whole
          ? audit(parts, c, viewer, "export", `journal ${span}`)
          : audit(parts, c, viewer, "export_failed", `journal ${span}: ${end.why}`),
    });
  });
}
