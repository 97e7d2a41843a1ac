import type { BotOrders, Role } from "../../src/bot/deps.ts";
import { formatOrderTime } from "../../src/bot/format.ts";
import type { Translate } from "../../src/bot/i18n.ts";
import { failureReason, statusLabel, statusText } from "../../src/bot/order-texts.ts";
import { asciiDigits } from "../../src/catalog/index.ts";
import { formatMoney } from "../../src/money.ts";
import { isInferred } from "../../src/orders/inferred-debit.ts";
import { normalizeProviderStatus, type Order, referenceSchema } from "../../src/orders/model.ts";
import {
  isProviderError,
  type ProviderClient,
  type Region,
  type StatusResult,
} from "../../src/provider/index.ts";
import { isWhatsAppAccount } from "../../src/whatsapp/chat-ids.ts";

/**
 * Finding an order for /status and for "repeat": by our reference number or by the provider's
 * transaction id. Customers see only their own orders, and another customer's order answers exactly
 * like an unknown one, so references cannot be probed. Agents and admins see every stored order and
 * may ask the aggregator about references the bot never stored.
 */

export interface Viewer {
  userId: number;
  role: Role;
}

/** Digits as typed ("#1234 5678", Devanagari digits too); null when it cannot be a reference or id. */
export function parseOrderQuery(text: string): string | null {
  const s = asciiDigits(text).replace(/[\s\-#.]/g, "");
  return /^\d{1,30}$/.test(s) ? s : null;
}

function canSee(viewer: Viewer, order: Order): boolean {
  return viewer.role !== "customer" || order.userId === viewer.userId;
}

/** The stored order the viewer may see under this number (a reference first, then a transaction id). */
export async function findVisibleOrder(
  orders: Pick<BotOrders, "get" | "getByTransactionId">,
  viewer: Viewer,
  query: string,
): Promise<Order | null> {
  const byReference = referenceSchema.safeParse(query).success ? await orders.get(query) : null;
  if (byReference && canSee(viewer, byReference)) return byReference;
  const byTransaction = await orders.getByTransactionId(query);
  if (byTransaction && canSee(viewer, byTransaction)) return byTransaction;
  return null;
}

export interface ProviderAnswer {
  region: Region;
  result: StatusResult;
}

const PROVIDER_QUERIES = [
  ["np", "reference"],
  ["in", "reference"],
  ["np", "transaction"],
  ["in", "transaction"],
] as const;

/**
 * Asks the aggregator (staff only): as an order reference in Nepal, then India, then as a
 * transaction id. A refusal ("not found") tries the next; transient errors are thrown so the caller
 * can offer Retry. Null when the aggregator knows nothing under this number.
 */
export async function askProvider(
  provider: ProviderClient,
  query: string,
): Promise<ProviderAnswer | null> {
  for (const [region, by] of PROVIDER_QUERIES) {
    try {
      const result =
        by === "reference"
          ? await provider.statusByReference(region, query)
          : await provider.statusByTransaction(region, query);
      return { region, result };
    } catch (e) {
      if (isProviderError(e) && (e.kind === "rejected" || e.kind === "invalid_request")) continue;
      throw e;
    }
  }
  return null;
}

/** A WhatsApp customer's id is their WhatsApp account's, not a Telegram id (as the back office's personOf). */
const customerKey = (userId: number) =>
  isWhatsAppAccount(userId) ? "status-customer-whatsapp" : "status-customer";

/**
 * A stored order as /status shows it; staff see who ordered it and an admin's settlement, admins
 * the wallet effects too, and for an order still open past SETTLE_AFTER_MS (`settleable`) the way to
 * settle it.
 */
export function orderStatusText(
  t: Translate,
  order: Order,
  role: Role,
  /** For an admin: whether the order may be settled now (orders.settleable). */
  settleable?: boolean,
): string {
  const lines = [statusText(t, order, role === "customer" ? "owner" : "staff")];
  if (order.transactionId) lines.push(t("status-transaction", { tx: order.transactionId }));
  if (order.status === "failed")
    lines.push(t("status-reason", { reason: failureReason(t, order, role) }));
  if (role !== "customer") lines.push(t(customerKey(order.userId), { user: String(order.userId) }));
  if (role !== "customer" && order.settled) {
    const s = order.settled;
    lines.push(
      t("status-settled", {
        admin: String(s.by),
        time: formatOrderTime(s.at, "np", t.locale),
        reason: s.reason,
        said: s.aggregator,
      }),
    );
    if (s.approvedBy !== undefined) {
      lines.push(t("status-settled-approved", { admin: String(s.approvedBy) }));
    }
    // In time order: a confirmation can come before a contradiction (never after: final-order.ts),
    // and then "the settlement stands" would no longer be true.
    if (s.confirmedAt !== undefined) {
      const time = formatOrderTime(s.confirmedAt, "np", t.locale);
      const key =
        s.contradictedAt === undefined
          ? "status-settled-confirmed"
          : "status-settled-confirmed-earlier";
      lines.push(t(key, { time }));
    }
    if (s.contradictedAt !== undefined) lines.push(t("status-settled-contradicted"));
  }
  if (role !== "customer" && order.contradicted) {
    // The aggregator's own final word against the order's (final-order.ts): nothing moved.
    const c = order.contradicted;
    lines.push(
      t("status-contradicted", {
        time: formatOrderTime(c.at, order.region, t.locale),
        // A reversal word is shown as the aggregator answered it ("refunded"), not as "failed".
        said: c.word === undefined ? statusLabel(t, c.said) : `"${c.word}"`,
        status: statusLabel(t, order.status),
      }),
    );
  }
  if (role === "admin" && settleable) {
    const p = order.settleProposal;
    lines.push(
      p
        ? t("status-settle-proposed", {
            admin: String(p.by),
            outcome: statusLabel(t, p.outcome),
            ref: order.reference,
          })
        : t("status-settle-hint", { ref: order.reference }),
    );
  }
  if (role === "admin" && order.wallet) {
    lines.push(
      t("status-wallet", {
        // The wallet is in Nepal rupees for both regions (its debit and balance; spec 2.1).
        debit: formatMoney(order.wallet.debitAmountPaisa, { region: "np", locale: t.locale }),
        fee: formatMoney(order.wallet.serviceChargePaisa, {
          region: order.region,
          locale: t.locale,
        }),
        balance:
          order.wallet.creditAvailablePaisa === null
            ? "—"
            : formatMoney(order.wallet.creditAvailablePaisa, { region: "np", locale: t.locale }),
      }),
    );
    if (isInferred(order.wallet)) lines.push(t("status-wallet-inferred"));
  }
  return lines.join("\n");
}

/** What the aggregator said about a reference the bot does not have. */
export function providerStatusText(t: Translate, answer: ProviderAnswer): string {
  const { result, region } = answer;
  const status = normalizeProviderStatus(result.status);
  const lines = [
    t("status-provider-result", {
      ref: result.referenceNo,
      operator: result.operator ?? "—",
      number: result.connectionNo ?? "—",
      amount: formatMoney(result.amountPaisa, { region, locale: t.locale }),
      status: status ? statusLabel(t, status) : result.status,
    }),
    t("status-transaction", { tx: result.transactionId }),
  ];
  return lines.join("\n");
}
