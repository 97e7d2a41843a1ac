import type { Hono } from "hono";
import { html } from "hono/html";
import type { JournalEntry } from "../../ledger/index.ts";
import { type Order, referenceSchema } from "../../orders/index.ts";
import { allow, authenticate } from "../auth.ts";
import type { SentMessage } from "../deps.ts";
import {
  type Fragment,
  facts,
  notice,
  orderForm,
  page,
  rs,
  table,
  time,
  type Viewer,
} from "../html.ts";
import { transfersOf } from "../order-transfers.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";
import { searchOrders } from "./order-search.ts";
import { orderSettleRoutes, settlePortOf, settleSection } from "./order-settle.ts";

/**
 * An order by its reference, for admins and agents (what /status gives an agent, and more): its
 * fields, its status, its history as the store records it (each source's claim with its note and
 * the provider's answer, webhook or status reply behind it, collapsed),
 * status words nobody understood, and, for admins, the books' transfers for it.
 */

function orderFacts(o: Order): Fragment {
  return facts([
    ["Reference", o.reference],
    ["Status", o.status],
    ["Category", `${o.category} (${o.region})`],
    ["Operator", `${o.operatorName} (#${o.operatorId})`],
    ["Number / account", o.connectionNo],
    ["Amount", rs(o.amountPaisa)],
    ["Price paid", o.price ? `${rs(o.price.totalPaisa)} (fee ${rs(o.price.feePaisa)})` : "—"],
    ["Aggregator debit", rs(o.wallet?.debitAmountPaisa)],
    ["Provider transaction", o.transactionId ?? "—"],
    ["Execute reference", o.executeReference ?? "—"],
    ["Customer (Telegram id)", o.userId],
    ["Provider message", o.providerMessage ?? "—"],
    ["Placed", time(o.createdAt)],
    ["Submitted", time(o.submittedAt)],
    ["Last change", time(o.updatedAt)],
    ["Flagged as stuck", time(o.flaggedAt)],
    ["Settled by an admin", o.settled ? `${o.settled.by}, ${time(o.settled.at)}` : "—"],
    ["Contradicted by the aggregator", contradictedOf(o)],
    ["Receipt in the chat", receiptOf(o)],
    ["Customer's available after", rs(o.balanceAfterPaisa)],
    ["Language", o.locale],
  ]);
}

/**
 * The aggregator's own final word against the order's final outcome (orders/final-order.ts):
 * what it said, when, through which answer; nothing moved. A settled order's is in its settlement.
 */
function contradictedOf(o: Order): string {
  const c = o.contradicted;
  if (c) {
    return `${time(c.at)}: the aggregator said ${c.said} (${c.source} answer), but the order stays ${o.status}; no money moved, a correction needs an admin`;
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

function timeline(o: Order): Fragment {
  const rows = o.history.map((h) => [
    time(h.at),
    h.source,
    h.status ?? "(record only)",
    h.note ?? "",
    payloadCell(h.payload),
  ]);
  const words = (o.unrecognised ?? []).map((u) => [time(u.at), u.source, u.word]);
  return html`<h2>Timeline</h2>${table(["Time", "Source", "Status", "Note", "What was sent"], rows)}
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
  const books = viewer.role === "admin" ? transfers(await transfersOf(parts.deps.ledger, o)) : "";
  const sent = await parts.deps.sent?.list(o.reference);
  const settle = settleSection(o, settlePortOf(parts), viewer);
  return page(
    `Order ${o.reference}`,
    html`${orderForm(o.reference)}${orderFacts(o)}${settle}${timeline(o)}${sentMessages(sent)}${books}`,
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
