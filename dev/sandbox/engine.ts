import type { Operator, Region } from "../../src/catalog/index.ts";
import { toDecimalString, toRupeesNumber } from "../../src/money.ts";
import { type Faults, NO_FAULTS } from "./faults.ts";
import { type Fees, feesFor } from "./fees.ts";
import type { Scheduler } from "./scheduler.ts";
import { humanTimestamp, isoTimestamp } from "./timefmt.ts";
import type { Listing, Reference, ValidOrder } from "./validate.ts";
import type { Delivery, WebhookSender, WebhookTarget } from "./webhooks.ts";

/**
 * The aggregator's state per token: wallet, transactions, listings, webhook configuration and
 * deliveries; the transaction lifecycle queued -> pending -> success | failed on timers, refunds on
 * failure, and a webhook event for every status change. All changes of one request happen without
 * an await in between, so concurrent requests cannot both pass the duplicate or balance check.
 */

export type TxStatus = "queued" | "pending" | "success" | "failed";
/** What the test number forces: see `outcomeFor`. */
export type Outcome = "success" | "failed" | "hold" | "instant";

export interface Transaction {
  transactionId: string;
  reference: Reference;
  region: Region;
  operator: Operator;
  connectionNo: string;
  amountPaisa: number;
  packageName: string | null;
  details: Record<string, string>;
  fees: Fees;
  debitPaisa: number;
  refundPaisa: number;
  balanceAfterPaisa: number;
  status: TxStatus;
  outcome: Outcome;
  createdAt: number;
  updatedAt: number;
  history: Array<{ status: TxStatus; at: number; by: string }>;
  timer: number | null;
  /** A held (…9999) transaction whose final timer has run: the next status query resolves it. */
  finalDue: boolean;
  /** The pending event held back by the outOfOrderWebhooks fault, sent after the final one. */
  heldPending: Record<string, unknown> | null;
}

export interface Account {
  token: string;
  balancePaisa: number;
  webhook: WebhookTarget | null;
  connected: boolean;
  faults: Faults;
  transactions: Map<string, Transaction>;
  byReference: Map<string, Transaction>;
  listings: Map<string, Listing>;
  deliveries: Delivery[];
  window: { second: number; count: number };
}

/**
 * Whether this account already paid the bill of this customer (operator, connection_no and the
 * given execute fields, e.g. office_code and sc_no): a successful payment settles everything due,
 * so the next bill check shows nothing due, as the utilities do. Derived from the transactions, so
 * a failed (refunded) payment leaves the bill due.
 */
export function billPaid(
  account: Account,
  operatorId: number,
  connectionNo: string,
  fields: Record<string, string>,
): boolean {
  for (const tx of account.transactions.values()) {
    if (tx.status !== "success" || tx.operator.id !== operatorId) continue;
    if (tx.connectionNo !== connectionNo) continue;
    if (Object.entries(fields).every(([k, v]) => tx.details[k] === v)) return true;
  }
  return false;
}

export const DEFAULT_BALANCE_PAISA = 100_000_00;
const MAX_LISTINGS = 5_000;
const MAX_DELIVERIES = 2_000;

export function newAccount(
  token: string,
  balancePaisa = DEFAULT_BALANCE_PAISA,
  webhook: WebhookTarget | null = null,
): Account {
  return {
    token,
    balancePaisa,
    webhook,
    connected: false,
    faults: { ...NO_FAULTS },
    transactions: new Map(),
    byReference: new Map(),
    listings: new Map(),
    deliveries: [],
    window: { second: -1, count: 0 },
  };
}

/**
 * Deterministic test numbers, by the end of connection_no: 0000 fails (and refunds), 9999 stays
 * pending until a status query after the final delay, 8888 succeeds at once, anything else succeeds
 * after the delays.
 */
export function outcomeFor(connectionNo: string): Outcome {
  if (connectionNo.endsWith("0000")) return "failed";
  if (connectionNo.endsWith("9999")) return "hold";
  if (connectionNo.endsWith("8888")) return "instant";
  return "success";
}

export interface EngineDeps {
  now: () => number;
  scheduler: Scheduler;
  webhooks: WebhookSender;
  delays: { toPendingMs: number; toFinalMs: number };
  /** Deliver events only after a successful connect (spec 6.1); default false (whenever a URL is set). */
  requireConnect: boolean;
  logger: { info: (obj: object, msg?: string) => void };
  /** India executes debit the Nepal-rupee wallet at this rate (fees.ts); default the peg. */
  inrToNprRateE4?: number;
}

export type ExecuteResult =
  | { ok: true; tx: Transaction }
  | { ok: false; httpStatus: number; message: string };

export function createEngine(deps: EngineDeps) {
  let lastTxId = Math.max(1, Math.floor(deps.now()));

  function nextTransactionId(): string {
    // Increasing 13-digit numbers seeded from the clock: unique across restarts, safe integers.
    lastTxId = Math.max(lastTxId + 1, Math.floor(deps.now()));
    return String(lastTxId);
  }

  function webhookPayload(tx: Transaction, at: number): Record<string, unknown> {
    return {
      status: tx.status,
      transaction_id: Number(tx.transactionId),
      order_id: tx.reference.raw,
      amount: toRupeesNumber(tx.amountPaisa),
      timestamp: isoTimestamp(at),
      details: { connection_no: tx.connectionNo, operator: tx.operator.name },
      package_name: tx.packageName,
    };
  }

  function deliver(account: Account, payload: Record<string, unknown>): Delivery[] {
    const target = account.webhook;
    if (!target) return [];
    if (deps.requireConnect && !account.connected) return [];
    const f = account.faults;
    const created = deps.webhooks.sendEvent(target, payload, {
      duplicate: f.duplicateWebhooks,
      delayMs: f.webhookDelayMs,
      drop: f.dropWebhooks,
    });
    account.deliveries.push(...created);
    if (account.deliveries.length > MAX_DELIVERIES) {
      account.deliveries.splice(0, account.deliveries.length - MAX_DELIVERIES);
    }
    return created;
  }

  function emit(account: Account, tx: Transaction): void {
    if (tx.status === "queued") return;
    const payload = webhookPayload(tx, tx.updatedAt);
    if (tx.status === "pending" && account.faults.outOfOrderWebhooks) {
      tx.heldPending = payload;
      return;
    }
    const sent = deliver(account, payload);
    const held = tx.heldPending;
    if (tx.status !== "pending" && held) {
      tx.heldPending = null;
      // Strictly after the final event has been answered, so the receiver sees pending last.
      deps.scheduler.track(
        deps.webhooks.whenDone(sent).then(() => {
          deliver(account, held);
        }),
      );
    }
  }

  function setStatus(account: Account, tx: Transaction, status: TxStatus, by: string): void {
    if (tx.status === status) return;
    const at = deps.now();
    tx.status = status;
    tx.updatedAt = at;
    tx.history.push({ status, at, by });
    if (status === "failed" && tx.refundPaisa === 0) {
      tx.refundPaisa = tx.debitPaisa;
      account.balancePaisa += tx.debitPaisa;
    }
    if (status === "success" || status === "failed") {
      if (tx.timer !== null) deps.scheduler.cancel(tx.timer);
      tx.timer = null;
      tx.finalDue = false;
    }
    deps.logger.info(
      { tx: tx.transactionId, ref: tx.reference.text, status, by },
      "sandbox transaction status",
    );
    emit(account, tx);
  }

  function startLifecycle(account: Account, tx: Transaction): void {
    tx.timer = deps.scheduler.schedule(deps.delays.toPendingMs, () => {
      tx.timer = null;
      if (tx.status !== "queued") return;
      setStatus(account, tx, "pending", "timer");
      tx.timer = deps.scheduler.schedule(deps.delays.toFinalMs, () => {
        tx.timer = null;
        if (tx.status !== "pending") return;
        if (tx.outcome === "hold") tx.finalDue = true;
        else setStatus(account, tx, tx.outcome === "failed" ? "failed" : "success", "timer");
      });
    });
  }

  return {
    /** Applies a validated order: duplicate check, wallet debit, transaction, lifecycle. */
    execute(account: Account, order: ValidOrder): ExecuteResult {
      const refText = order.reference.text;
      if (account.byReference.has(refText)) {
        return {
          ok: false,
          httpStatus: 400,
          message: `Duplicate reference_no ${refText}: a transaction with this reference already exists`,
        };
      }
      const fees = feesFor(order.operator.category, order.amountPaisa, deps.inrToNprRateE4);
      if (account.balancePaisa < fees.debitPaisa) {
        return {
          ok: false,
          httpStatus: 400,
          message: `Insufficient balance: Rs ${toDecimalString(fees.debitPaisa)} needed, Rs ${toDecimalString(account.balancePaisa)} available`,
        };
      }
      const at = deps.now();
      account.balancePaisa -= fees.debitPaisa;
      const outcome = outcomeFor(order.connectionNo);
      const tx: Transaction = {
        transactionId: nextTransactionId(),
        reference: order.reference,
        region: order.operator.region,
        operator: order.operator,
        connectionNo: order.connectionNo,
        amountPaisa: order.amountPaisa,
        packageName: order.packageName,
        details: order.details,
        fees,
        debitPaisa: fees.debitPaisa,
        refundPaisa: 0,
        balanceAfterPaisa: account.balancePaisa,
        status: "queued",
        outcome,
        createdAt: at,
        updatedAt: at,
        history: [{ status: "queued", at, by: "execute" }],
        timer: null,
        finalDue: false,
        heldPending: null,
      };
      account.transactions.set(tx.transactionId, tx);
      account.byReference.set(refText, tx);
      account.listings.delete(refText);
      if (outcome === "instant") setStatus(account, tx, "success", "execute");
      else startLifecycle(account, tx);
      return { ok: true, tx };
    },

    /** Remembers a package listing; its reference is what the data-pack or DTH execute must carry. */
    recordListing(account: Account, reference: string, listing: Listing): string | null {
      if (account.byReference.has(reference)) {
        return `Duplicate reference_no ${reference}: a transaction with this reference already exists`;
      }
      account.listings.delete(reference);
      account.listings.set(reference, listing);
      if (account.listings.size > MAX_LISTINGS) {
        const oldest = account.listings.keys().next().value;
        if (oldest !== undefined) account.listings.delete(oldest);
      }
      return null;
    },

    /** Status query: finds the transaction of this region; resolves a held one that is due. */
    find(
      account: Account,
      region: Region,
      by: "transaction" | "order",
      id: string,
    ): Transaction | undefined {
      const tx = by === "transaction" ? account.transactions.get(id) : account.byReference.get(id);
      if (!tx || tx.region !== region) return undefined;
      if (tx.outcome === "hold" && tx.status === "pending" && tx.finalDue) {
        setStatus(account, tx, "success", "status query");
      }
      return tx;
    },

    /** Admin: force a status. A refunded (failed) transaction cannot be revived. */
    force(account: Account, transactionId: string, status: "pending" | "success" | "failed") {
      const tx = account.transactions.get(transactionId);
      if (!tx) return { ok: false as const, message: "Transaction not found" };
      if (tx.status === "failed" && status !== "failed") {
        return {
          ok: false as const,
          message: "The transaction failed and was refunded; it cannot change again",
        };
      }
      if (status === "pending" && tx.status === "success") {
        return { ok: false as const, message: "A successful transaction cannot become pending" };
      }
      if (tx.timer !== null && status !== "pending") {
        deps.scheduler.cancel(tx.timer);
        tx.timer = null;
      }
      setStatus(account, tx, status, "admin");
      return { ok: true as const, tx };
    },

    async connect(account: Account): Promise<boolean> {
      if (!account.webhook) return false;
      const { connected, delivery } = await deps.webhooks.connect(account.webhook);
      account.deliveries.push(delivery);
      account.connected = connected;
      return connected;
    },

    statusData(tx: Transaction) {
      return {
        status: tx.status,
        transaction_id: Number(tx.transactionId),
        order_id: tx.reference.raw,
        amount: toRupeesNumber(tx.amountPaisa),
        timestamp: humanTimestamp(tx.createdAt),
        details: { connection_no: tx.connectionNo, operator: tx.operator.name },
        package_name: tx.packageName,
      };
    },

    executeData(tx: Transaction) {
      return {
        transaction_id: Number(tx.transactionId),
        reference_no: tx.reference.raw,
        amount: toRupeesNumber(tx.amountPaisa),
        credit_consumed: {
          service_charge: toRupeesNumber(tx.fees.serviceChargePaisa),
          instant_discount: toRupeesNumber(tx.fees.instantDiscountPaisa),
          debit_amount: toRupeesNumber(tx.debitPaisa),
        },
        credit_available: toRupeesNumber(tx.balanceAfterPaisa),
        ...(tx.fees.commissionPaisa === undefined
          ? {}
          : { commission: toRupeesNumber(tx.fees.commissionPaisa) }),
        status: tx.status,
      };
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;

/** The ledger row of one transaction: exactly one debit per reference, and its refund if any. */
export function ledgerRow(tx: Transaction) {
  return {
    referenceNo: tx.reference.text,
    transactionId: tx.transactionId,
    operatorId: tx.operator.id,
    category: tx.operator.category,
    connectionNo: tx.connectionNo,
    amountPaisa: tx.amountPaisa,
    serviceChargePaisa: tx.fees.serviceChargePaisa,
    instantDiscountPaisa: tx.fees.instantDiscountPaisa,
    commissionPaisa: tx.fees.commissionPaisa ?? null,
    debitPaisa: tx.debitPaisa,
    refundPaisa: tx.refundPaisa,
    balanceAfterPaisa: tx.balanceAfterPaisa,
    status: tx.status,
    at: isoTimestamp(tx.createdAt),
  };
}
export type LedgerRow = ReturnType<typeof ledgerRow>;

/** A transaction as plain JSON for the admin API and tests. */
export function transactionView(tx: Transaction) {
  return {
    transactionId: tx.transactionId,
    referenceNo: tx.reference.text,
    region: tx.region,
    operatorId: tx.operator.id,
    operator: tx.operator.name,
    category: tx.operator.category,
    connectionNo: tx.connectionNo,
    amountPaisa: tx.amountPaisa,
    packageName: tx.packageName,
    details: tx.details,
    debitPaisa: tx.debitPaisa,
    refundPaisa: tx.refundPaisa,
    status: tx.status,
    outcome: tx.outcome,
    createdAt: isoTimestamp(tx.createdAt),
    history: tx.history.map((h) => ({ status: h.status, at: isoTimestamp(h.at), by: h.by })),
  };
}
export type TransactionView = ReturnType<typeof transactionView>;
