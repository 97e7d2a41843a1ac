import { z } from "zod";
import { type BooksReport, raisedAlerts } from "../../books/index.ts";
import { inRegion, rs, time } from "../html.ts";
import type { DashboardKeys } from "../keys.ts";
import type { DashboardKv } from "../kv.ts";
import type { ActionDeps } from "./deps.ts";

/**
 * What needs an admin's attention now, read from what the system already records (nothing is
 * computed twice, nothing new is watched): the books' report (the low-float alert standing, as
 * /books lists it; the trial balance, the float's drift and the last check), the order store's
 * open set (orders older than RECONCILE_MAX_AGE_MS), the top-ups held for a decision (the
 * gateway's lookup disagreed) and the provider events that named no order.
 *
 * Each alert has an id that is stable while its cause lasts ("stuck:<reference>", "low-float"),
 * so an acknowledgement (who, when) sticks to it. A standing condition (low float, drift, books
 * out of balance, the wallet unknown) that has cleared loses its acknowledgement when the page
 * next finds it clear, so the next episode shows as open again.
 */

export type AlertKind =
  | "low_float"
  | "float_unknown"
  | "drift"
  | "unbalanced"
  | "stuck_order"
  | "gateway_mismatch"
  | "unmatched_event"
  | "books_unreadable";

export interface Alert {
  id: string;
  kind: AlertKind;
  /** When it started, if known. */
  since?: number;
  text: string;
  /** Where to look at it in the back office. */
  href?: string;
}

export const ackSchema = z.object({
  by: z.number().int(),
  role: z.string().max(20),
  at: z.number().int(),
});
export type Ack = z.infer<typeof ackSchema>;

export const alertIdSchema = z.string().regex(/^[A-Za-z0-9:_.-]{1,160}$/, "not an alert id");

/** An acknowledgement is kept this long (an alert still open after it shows open again). */
export const ACK_TTL_MS = 90 * 86_400_000;
/** Unmatched provider events older than this are not alerts any more (still in the store). */
const UNMATCHED_WINDOW_MS = 30 * 86_400_000;
const LIST_MAX = 50;
const STANDING = ["low-float", "float-unknown", "drift", "unbalanced"] as const;

const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 60);

function booksAlerts(r: BooksReport): Alert[] {
  const out: Alert[] = [];
  const reported = r.float.reportedPaisa;
  if (reported === null) {
    out.push({
      id: "float-unknown",
      kind: "float_unknown",
      text: "The aggregator did not answer: its wallet figure (the float) is unknown.",
    });
  }
  // The low float as /books and the chat's alert judge it (src/books/raised.ts): it stands from
  // an order's answer below LOW_FLOAT_ALERT until one at or above it, whatever the wallet reads
  // now (a refill read here first clears it when the next order's answer shows it).
  const low = raisedAlerts(r).find((a) => a.kind === "lowFloat");
  if (low) {
    out.push({
      id: "low-float",
      kind: "low_float",
      text: `Low float: the aggregator reports ${rs(low.reportedPaisa)} now; an order's answer read it below ${rs(low.thresholdPaisa)} (LOW_FLOAT_ALERT), and the alert stands until one reads it at or above that.`,
      href: "/books",
    });
  }
  if (!r.balanced) {
    out.push({
      id: "unbalanced",
      kind: "unbalanced",
      text: `The books do not balance: ${r.problems} problems (sums ${rs(r.postedSumPaisa)} posted, ${rs(r.pendingSumPaisa)} pending).`,
      href: "/books",
    });
  }
  if (r.float.withinTolerance === false) {
    const last = r.lastCheck ? ` Last check ${time(r.lastCheck.at)}: ${r.lastCheck.verdict}.` : "";
    out.push({
      id: "drift",
      kind: "drift",
      text: `Float drift ${rs(r.float.driftPaisa)}: expected ${rs(r.float.expectedPaisa)}, the aggregator reports ${rs(reported)} (tolerance ${rs(r.float.tolerancePaisa)}).${last}`,
      href: "/books",
    });
  }
  return out;
}

/** Every alert now, oldest cause first within each kind. */
export async function currentAlerts(
  actions: ActionDeps,
  books: { report(): Promise<BooksReport> },
  now: number,
): Promise<Alert[]> {
  let out: Alert[];
  try {
    out = booksAlerts(await books.report());
  } catch (err) {
    const why = err instanceof Error ? err.message.slice(0, 120) : "unknown";
    out = [
      {
        id: "books-unreadable",
        kind: "books_unreadable",
        text: `The books' report failed: ${why}.`,
      },
    ];
  }
  const open = await actions.orders.listOpen({
    createdBefore: now - actions.stuckAfterMs,
    limit: LIST_MAX,
  });
  for (const o of open) {
    out.push({
      id: `stuck:${o.reference}`,
      kind: "stuck_order",
      since: o.createdAt,
      text: `Order ${o.reference} (${inRegion(o.amountPaisa, o.region)}) is still ${o.status} since ${time(o.createdAt)}.`,
      href: `/orders?ref=${o.reference}`,
    });
  }
  for (const t of (await actions.topUps?.held(LIST_MAX)) ?? []) {
    out.push({
      id: `held:${safe(t.paymentId)}`,
      kind: "gateway_mismatch",
      since: t.held?.at ?? t.updatedAt,
      text: `Top-up ${t.paymentId} of user ${t.userId}: asked ${rs(t.amountPaisa)}, the ${t.gateway} lookup reports ${rs(t.held?.reportedPaisa)}; held for a decision.`,
      href: "/topups",
    });
  }
  for (const e of await actions.orders.listUnmatched(LIST_MAX)) {
    if (e.receivedAt < now - UNMATCHED_WINDOW_MS) continue;
    const named = e.reference ?? e.transactionId ?? "-";
    out.push({
      id: `unmatched:${e.receivedAt}:${safe(named)}`,
      kind: "unmatched_event",
      since: e.receivedAt,
      text: `A ${e.source} event names no order of ours: reference ${e.reference ?? "—"}, transaction ${e.transactionId ?? "—"}, status ${e.status ?? "—"}${e.amountPaisa ? `, ${rs(e.amountPaisa)}` : ""}.`,
    });
  }
  return out;
}

export interface AckStore {
  /** Records the acknowledgement once: false when it was acknowledged already. */
  acknowledge(id: string, ack: Ack): Promise<boolean>;
  get(id: string): Promise<Ack | null>;
  /** Forgets the acknowledgements of standing conditions that are not alerts now. */
  clearCleared(current: readonly Alert[]): Promise<void>;
}

export function ackStore(kv: DashboardKv, keys: DashboardKeys): AckStore {
  return {
    acknowledge: (id, ack) =>
      kv.setNx(keys.ack(id), JSON.stringify(ackSchema.parse(ack)), ACK_TTL_MS),
    async get(id) {
      const raw = await kv.get(keys.ack(id));
      if (raw === null) return null;
      try {
        const a = ackSchema.safeParse(JSON.parse(raw));
        return a.success ? a.data : null;
      } catch {
        return null;
      }
    },
    async clearCleared(current) {
      const now = new Set(current.map((a) => a.id));
      // Without the books' report nothing is known to have cleared.
      if (now.has("books-unreadable")) return;
      for (const id of STANDING) if (!now.has(id)) await kv.del(keys.ack(id));
    },
  };
}
