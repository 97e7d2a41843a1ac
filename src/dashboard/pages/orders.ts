import type { Hono } from "hono";
import { html } from "hono/html";
import type { JournalEntry } from "../../ledger/index.ts";
import {
  chargedPaisa,
  FLOAT_SHORT_NOTE,
  type HistoryEntry,
  type Order,
  referenceSchema,
} from "../../orders/index.ts";
import { formatRate } from "../../pricing/index.ts";
import { allow, authenticate } from "../auth.ts";
import type { SentMessage } from "../deps.ts";
import {
  type Fragment,
  facts,
  inRegion,
  notice,
  orderForm,
  page,
  personOf,
  rs,
  table,
  time,
  type Viewer,
} from "../html.ts";
import { type ComplaintRefund, complaintRefundOf } from "../order-refund.ts";
import { transfersOf } from "../order-transfers.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";
import { searchOrders } from "./order-search.ts";
import { orderSettleRoutes, settlePortOf, settleSection } from "./order-settle.ts";

/**
 * An order by its reference, for admins and agents (what /status gives an agent, and more): its
 * fields, its status, its history as the store records it (each source's claim with its note),
 * status words nobody understood, and, for admins, the merchant's figures as /status shows them
 * to admins only (the aggregator's debit, the customer's balance after, the provider's answer
 * behind each event, collapsed: it carries the merchant's float and commission) and the books'
 * transfers for it.
 */

/**
 * What became of the price: never "paid" for an open or failed order (review s24-a, 2), nor
 * "charged" for one refunded on a complaint (review s24-e, 7: the books' refund, in Nepal rupees).
 */
function priceState(o: Order, refund: ComplaintRefund | null): string {
  if (o.holdId === undefined) return "not charged through the books (no hold)";
  if (refund) {
    const { entry, complaint } = refund;
    const back = `${rs(entry.amountPaisa)} back to the balance on complaint ${complaint}, ${time(entry.at)}`;
    return entry.amountPaisa >= chargedPaisa(o)
      ? `refunded in full: ${back}`
      : `refunded in part: ${back}; the rest stays paid`;
  }
  if (o.status === "success") return "charged";
  if (o.status === "failed") return "held, then returned (the order failed)";
  return "held (the order is open)";
}

/**
 * The price in the order's currency (₹ for India), and what the customer's Nepal-rupee balance
 * gives for it (chargedPaisa: an India order's converted total, at its rate), each with its state.
 */
function moneyRows(o: Order, refund: ComplaintRefund | null): Array<[string, string]> {
  const money = (paisa: number) => inRegion(paisa, o.region);
  const p = o.price;
  if (!p) return [["Price", "—"]];
  const discount = p.discountPaisa ? `, discount ${money(p.discountPaisa)}` : "";
  const state = priceState(o, refund);
  const rows: Array<[string, string]> = [
    ["Price", `${money(p.totalPaisa)} (fee ${money(p.feePaisa)}${discount}): ${state}`],
  ];
  if (o.holdId === undefined) return rows;
  const x = o.exchange;
  const rate = x ? ` at ₹1 = Rs ${formatRate(x.rateE4)}` : "";
  rows.push(["From the customer's balance", `${rs(chargedPaisa(o))}${rate}: ${state}`]);
  return rows;
}

function orderFacts(o: Order, viewer: Viewer, refund: ComplaintRefund | null): Fragment {
  const admin = viewer.role === "admin";
  return facts([
    ["Reference", o.reference],
    ["Status", o.status],
    ["Category", `${o.category} (${o.region})`],
    ["Operator", `${o.operatorName} (#${o.operatorId})`],
    ["Number / account", o.connectionNo],
    ["Amount", inRegion(o.amountPaisa, o.region)],
    ...moneyRows(o, refund),
    // The wallet at the aggregator is in Nepal rupees for both regions (spec 2.1).
    ...(admin ? [["Aggregator debit", rs(o.wallet?.debitAmountPaisa)] as const] : []),
    ["Provider transaction", o.transactionId ?? "—"],
    ["Execute reference", o.executeReference ?? "—"],
    ["Customer", personOf(o.userId)],
    ["Provider message", providerMessageOf(o, admin)],
    ["Placed", time(o.createdAt)],
    ["Submitted", time(o.submittedAt)],
    ["Last change", time(o.updatedAt)],
    ["Flagged as stuck", time(o.flaggedAt)],
    ["Settled by an admin", o.settled ? `${o.settled.by}, ${time(o.settled.at)}` : "—"],
    ["Contradicted by the aggregator", contradictedOf(o)],
    ["Receipt in the chat", receiptOf(o)],
    ...(admin ? [["Customer's available after", rs(o.balanceAfterPaisa)] as const] : []),
    ["Language", o.locale],
  ]);
}

/**
 * What an agent reads of a refusal for the merchant's own wallet: what the chat tells agents
 * (failureReason, src/bot/order-texts.ts), never the aggregator's words, which can carry the
 * merchant's float ("Rs 12.34 available"); admins read everything (review s24-e, 1).
 */
const FLOAT_SHORT_FOR_AGENTS = "the service is briefly unavailable (the chat's words for it)";

function providerMessageOf(o: Order, admin: boolean): string {
  if (o.floatShort && !admin) return FLOAT_SHORT_FOR_AGENTS;
  return o.providerMessage ?? "—";
}

/** A history entry's note; a float refusal's for admins only (see providerMessageOf). */
function noteOf(h: HistoryEntry, admin: boolean): string {
  const note = h.note ?? "";
  return !admin && note.startsWith(FLOAT_SHORT_NOTE) ? `rejected: ${FLOAT_SHORT_FOR_AGENTS}` : note;
}

/**
 * The aggregator's own final word against the order's final outcome (orders/final-order.ts):
 * what it said, when, through which answer; nothing moved. A settled order's is in its settlement.
 */
function contradictedOf(o: Order): string {
  const c = o.contradicted;
  if (c) {
    const said = c.word === undefined ? c.said : `"${c.word}" (a reversal: read as ${c.said})`;
    return `${time(c.at)}: the aggregator said ${said} (${c.source} answer), but the order stays ${o.status}; no money moved, a correction needs an admin`;
  }
  const at = o.settled?.contradictedAt;
  return at === undefined ? "no" : `${time(at)}: against the settlement (below); no money moved`;
}

/** What the order records of its receipt: the chat message the notifier edits in place. */
function receiptOf(o: Order): string {
  return o.receiptMessageId === undefined
    ? `none recorded (chat ${o.chatId})`
    : `message ${o.receiptMessageId} in chat ${o.chatId}`;
}

/** The provider's answer behind an entry, collapsed (kept JSON with secrets hidden; escaped here). */
function payloadCell(payload: string | undefined): Fragment | string {
  if (payload === undefined) return "";
  return html`<details><summary>payload (${payload.length} characters)</summary><pre>${payload}</pre></details>`;
}

/** The history; the provider's answers (the merchant's float, its commission) for admins only. */
function timeline(o: Order, admin: boolean): Fragment {
  const rows = o.history.map((h) => {
    const row = [time(h.at), h.source, h.status ?? "(record only)", noteOf(h, admin)];
    return admin ? [...row, payloadCell(h.payload)] : row;
  });
  const head = ["Time", "Source", "Status", "Note", ...(admin ? ["What was sent"] : [])];
  const words = (o.unrecognised ?? []).map((u) => [time(u.at), u.source, u.word]);
  return html`<h2>Timeline</h2>${table(head, rows)}
${words.length ? html`<h2>Status words not understood</h2>${table(["Time", "Source", "Word"], words)}` : ""}`;
}

function transfers(entries: JournalEntry[]): Fragment {
  const rows = entries.map((e) => [
    time(e.at),
    e.id,
    e.kind,
    e.debit,
    e.credit,
    html`<span class="amount">${rs(e.amountPaisa)}</span>`,
    e.reason ?? "",
  ]);
  return html`<h2>The books' transfers</h2>${table(
    ["Time", "Transfer", "Kind", "Debit", "Credit", "Amount", "Reason"],
    rows,
  )}`;
}

/** The messages the notifier sent for the order: when, to which chat, what, and if it went. */
function sentMessages(list: SentMessage[] | undefined): Fragment | string {
  if (list === undefined) return "";
  const rows = list.map((m) => [
    time(m.at),
    String(m.chatId),
    `${m.kind}: ${m.status}`,
    m.ok ? "taken by the messenger" : `refused: ${m.error ?? "unknown"}`,
  ]);
  return html`<h2>Messages sent</h2>${
    rows.length ? table(["Time", "Chat", "Message", "Delivery"], rows) : html`<p>None yet.</p>`
  }`;
}

async function orderPage(parts: DashboardParts, viewer: Viewer, o: Order): Promise<Fragment> {
  const admin = viewer.role === "admin";
  const refund = await complaintRefundOf(parts.deps.actions?.complaints, parts.deps.ledger, o);
  // The refund is booked under the complaint's number: shown with the order's own transfers.
  const entries = admin ? await transfersOf(parts.deps.ledger, o) : [];
  if (refund && !entries.some((e) => e.id === refund.entry.id)) entries.push(refund.entry);
  const books = admin ? transfers(entries) : "";
  const sent = await parts.deps.sent?.list(o.reference);
  const settle = settleSection(o, settlePortOf(parts), viewer);
  return page(
    `Order ${o.reference}`,
    html`${orderForm(o.reference)}${orderFacts(o, viewer, refund)}${settle}${timeline(o, admin)}${sentMessages(sent)}${books}`,
    viewer,
  );
}

export function orderRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  orderSettleRoutes(app, parts);
  app.get("/orders", authenticate(parts), allow("admin", "agent"), async (c) => {
    // Without `ref` this is the orders search (admins only); with it, one order by reference.
    if (c.req.query("ref") === undefined) return searchOrders(c, parts);
    const viewer = c.get("viewer");
    const given = c.req.query("ref") ?? "";
    const ref = referenceSchema.safeParse(given.trim());
    if (!ref.success) {
      const why = given ? "A reference is 1 to 15 digits." : "Give an order reference.";
      return c.html(
        page("Order", html`${notice(why, "error")}${orderForm(given.slice(0, 20))}`, viewer),
        400,
      );
    }
    const order = await parts.deps.orders.get(ref.data);
    if (!order) {
      return c.html(
        page(
          "Order",
          html`${notice(`No order ${ref.data}.`, "error")}${orderForm(ref.data)}`,
          viewer,
        ),
        404,
      );
    }
    return c.html(await orderPage(parts, viewer, order));
  });
}
