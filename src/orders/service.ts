import type { Registry } from "prom-client";
import { z } from "zod";
import type { Logger } from "../logger.ts";
import {
  DEFAULT_INR_TO_NPR_RATE,
  DEFAULT_PRICE_SCHEDULE,
  type NprCharge,
  nprCharge,
  type PriceSchedule,
  parseRate,
  quote,
} from "../pricing/index.ts";
import type { ExecuteRequest, Region } from "../provider/requests.ts";
import type { ExecuteResult, StatusResult } from "../provider/schemas.ts";
import { perCategory } from "./categories/index.ts";
import { toExecuteRequest } from "./execute-request.ts";
import { createMoneyPathMetrics, type MoneyPathMetrics } from "./metrics.ts";
import {
  holdIdOf,
  type Notification,
  normalizeProviderStatus,
  type Order,
  type OrderEvent,
  orderEventSchema,
  orderSchema,
  referenceSchema,
} from "./model.ts";
import { type RecentOrders, recentOrders } from "./recent.ts";
import { transition } from "./state.ts";
import { HoldRefusedError, type OrderStore } from "./store.ts";

/**
 * The orders service: place (durable before execute), submit (mark submitting, execute once),
 * apply (the one door through which every outcome passes). No status changes anywhere else.
 */

/** What the orders service needs of the provider client (createProviderClient satisfies it). */
export interface OrdersProvider {
  execute(req: ExecuteRequest): Promise<ExecuteResult>;
  statusByReference(region: Region, referenceNo: string): Promise<StatusResult>;
}

const chatId = z.number().int().refine(Number.isSafeInteger);

/** One member per category, like the order: the details must be those of its category. */
export const placeInputSchema = perCategory({
  /** Fixed by the caller when the confirmation is shown; placing with a known key is a no-op. */
  idempotencyKey: z.string().min(1).max(200),
  /** A reference allocated earlier with nextReference (e.g. for a package listing). */
  referenceNo: referenceSchema.optional(),
  /** The reference the listing returned, when the provider answered with another one. */
  executeReference: z.string().min(1).max(64).optional(),
  userId: chatId,
  chatId,
  locale: z.string().min(2).max(16).default("en"),
  region: z.enum(["np", "in"]),
  operatorId: z.number().int().positive(),
  operatorTypeId: z.number().int().positive(),
  operatorName: z.string().min(1),
  connectionNo: z.string().min(1),
  amountPaisa: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
export type PlaceInput = z.input<typeof placeInputSchema>;

/**
 * An event plus how to find its order: by reference (ours or the execute reference), else by
 * `byTransactionId`, else by the event's own transactionId. `byTransactionId` only finds the order;
 * it is not recorded on it (an unconfirmed claim must not plant a transaction id).
 */
export interface SubmitOptions {
  /** The order as the caller last wrote or read it: saves the read before the write. */
  known?: Order;
  /** The chat message to edit with later statuses, remembered with the submitting mark. */
  receiptMessageId?: number;
}

export type ApplyInput = OrderEvent & { reference?: string; byTransactionId?: string };

export type ApplyOutcome =
  /** The status moved (notifications were queued). */
  | "changed"
  /** Recorded in the history or filled a missing field, status unchanged. */
  | "recorded"
  /** Nothing to do: duplicate, stale, final order or precondition not met. */
  | "unchanged"
  /** No such order: the event was kept for an admin. */
  | "unmatched";

export interface ApplyResult {
  outcome: ApplyOutcome;
  order: Order | null;
  notifications: Notification[];
}

export class OrderInputError extends Error {
  constructor(readonly detail: string) {
    super(`order refused: ${detail}`);
    this.name = "OrderInputError";
  }
}

/** The reference of an order the store numbers as it creates it, until then (a valid one). */
const UNNUMBERED = "1";

export class OrderNotFoundError extends Error {
  constructor(readonly reference: string) {
    super(`no order ${reference}`);
    this.name = "OrderNotFoundError";
  }
}

/**
 * Who pays (ACCESS_MODE): prepaid, the customer's balance is held; staff, the merchant's wallet
 * pays (no hold; the chat lets only listed users order). No default: whoever builds the service
 * says which (the composition root: config.accessMode).
 */
export type AccessMode = "prepaid" | "staff";

/** The customer's available balance does not cover the order's price: nothing was written. */
export class InsufficientFundsError extends Error {
  constructor(
    readonly availablePaisa: number,
    readonly totalPaisa: number,
    readonly shortfallPaisa: number,
  ) {
    super(`insufficient balance: ${shortfallPaisa} paisa short`);
    this.name = "InsufficientFundsError";
  }
}

/** What one execute answer told about the merchant's wallet (for the low-float alert). */
export interface WalletReading {
  reference: string;
  status: Order["status"];
  at: number;
  /** The wallet after the order, when the aggregator said it. */
  creditAvailablePaisa?: number;
  /** The aggregator refused the order for the wallet being short. */
  refused: boolean;
}

export interface OrdersOptions {
  /** Told every wallet reading of an execute answer (src/books float watch); errors are logged. */
  onWalletReading?: (r: WalletReading) => Promise<unknown>;
  store: OrderStore;
  /** The merchant's price schedule (config.pricing.schedule); default: face amount, no fee. */
  pricing?: PriceSchedule;
  /** In "prepaid" every order takes a hold on its customer's balance. */
  accessMode: AccessMode;
  /**
   * NPR per 1 INR in ten-thousandths (config INR_TO_NPR_RATE; default the peg, 1.6): an India
   * order in prepaid mode holds its ₹ price converted at this rate (src/pricing/exchange.ts).
   */
  inrToNprRateE4?: number;
  provider: OrdersProvider;
  /**
   * The longest the submitting mark may take to be written for the execute still to be sent
   * (wired: half the reconciler's not-found grace). Absent: no limit (parts built by hand).
   */
  sendWindowMs?: number;
  logger?: Logger;
  now?: () => number;
  registry?: Registry;
  metrics?: MoneyPathMetrics;
}

/**
 * Whether the aggregator refused an order for the merchant's own wallet. The spec names no code for
 * it (section 7: "not shown"), so its words decide: "Insufficient balance: Rs 500.00 needed, ...".
 */
export function isFloatRefusal(message: string): boolean {
  return /\b(insufficient|not enough|low)\b[^.]{0,20}\b(balance|credit|fund|wallet)/i.test(message);
}

/** The event an execute outcome stands for. */
export function eventFromExecute(result: ExecuteResult, at: number): OrderEvent {
  switch (result.kind) {
    case "accepted":
      return {
        source: "execute",
        status: normalizeProviderStatus(result.status) ?? "queued",
        at,
        transactionId: result.transactionId,
        ...(result.message ? { providerMessage: result.message.slice(0, 500) } : {}),
        wallet: {
          amountPaisa: result.amountPaisa,
          serviceChargePaisa: result.serviceChargePaisa,
          instantDiscountPaisa: result.instantDiscountPaisa,
          debitAmountPaisa: result.debitAmountPaisa,
          creditAvailablePaisa: result.creditAvailablePaisa,
          source: "execute",
          ...(result.commissionPaisa === undefined
            ? {}
            : { commissionPaisa: result.commissionPaisa }),
        },
      };
    case "rejected": {
      const floatShort = !result.rateLimited && isFloatRefusal(result.message);
      return {
        source: "execute",
        status: "failed",
        at,
        note: result.rateLimited
          ? "rejected: rate limited"
          : floatShort
            ? `rejected: the merchant's wallet is short (HTTP ${result.httpStatus})`
            : `rejected (HTTP ${result.httpStatus})`,
        // The aggregator's own words stay on the order for admins; the customer's texts never
        // show them for a short float (failureReason).
        providerMessage: result.message.slice(0, 500),
        ...(floatShort ? { floatShort: true as const } : {}),
      };
    }
    case "unknown":
      return {
        source: "execute",
        status: "unknown",
        at,
        note: `outcome unknown (${result.reason})`,
      };
  }
}

/** The wallet reading an execute answer carries, if any. */
function readingOf(
  result: ExecuteResult,
): { creditAvailablePaisa?: number; refused: boolean } | null {
  if (result.kind === "accepted" && result.creditAvailablePaisa !== null)
    return { creditAvailablePaisa: result.creditAvailablePaisa, refused: false };
  if (result.kind === "rejected" && !result.rateLimited && isFloatRefusal(result.message))
    return { refused: true };
  return null;
}

/** The event a status-query answer stands for; an unrecognised status word is recorded only. */
export function eventFromStatus(
  result: StatusResult,
  source: "status" | "reconciler" | "webhook",
  at: number,
  note?: string,
): OrderEvent {
  const status = normalizeProviderStatus(result.status);
  const base = { source, at, transactionId: result.transactionId };
  if (status === null) return { ...base, status: null, unrecognised: result.status.slice(0, 40) };
  return { ...base, status, ...(note === undefined ? {} : { note }) };
}

function defaultRateE4(): number {
  const r = parseRate(DEFAULT_INR_TO_NPR_RATE);
  if (!r.ok) throw new Error(r.why);
  return r.rateE4;
}

export function createOrders(opts: OrdersOptions) {
  const { store, provider } = opts;
  const now = opts.now ?? Date.now;
  const log = opts.logger;
  const metrics = opts.metrics ?? createMoneyPathMetrics(opts.registry);
  const schedule = opts.pricing ?? DEFAULT_PRICE_SCHEDULE;
  const { accessMode } = opts;
  const rateE4 = opts.inrToNprRateE4 ?? defaultRateE4();
  const recent: RecentOrders = recentOrders();

  /** The price a customer pays for a draft: the same figures the confirm screen shows. */
  const priceOf = (d: { category: Order["category"]; operatorId: number; amountPaisa: number }) =>
    quote(schedule, { category: d.category, operatorId: d.operatorId, amountPaisa: d.amountPaisa });

  /**
   * What a prepaid customer's Nepal-rupee balance pays for a draft priced in ₹ (an India order):
   * the price converted at the configured rate. Undefined when the balance pays the price as it
   * is (a Nepal order) or nobody's balance pays (staff mode).
   */
  const exchangeOf = (d: {
    category: Order["category"];
    region: Order["region"];
    operatorId: number;
    amountPaisa: number;
  }): NprCharge | undefined =>
    accessMode === "prepaid" && d.region === "in" ? nprCharge(priceOf(d), rateE4) : undefined;

  async function find(input: { reference?: string; transactionId?: string }) {
    if (input.reference !== undefined) {
      const o = await store.get(input.reference);
      if (o) return o;
    }
    if (input.transactionId !== undefined) return store.getByTransactionId(input.transactionId);
    return null;
  }

  /**
   * The only code that changes a status and the only producer of notifications. Idempotent.
   * `known`: the order the caller has just written or read (the read is saved; a stale one only
   * costs a retry of the compare-and-set). Without it, the order this process last wrote or read
   * plays that part (recent.ts).
   */
  async function apply(input: ApplyInput, known?: Order): Promise<ApplyResult> {
    const result = await applyOnce(input, known);
    recent.remember(result.order);
    return result;
  }

  async function applyOnce(input: ApplyInput, known?: Order, hints = true): Promise<ApplyResult> {
    const { reference, byTransactionId, ...rest } = input;
    const event = orderEventSchema.parse(rest);
    const transactionId = byTransactionId ?? event.transactionId;
    const given = known !== undefined && known.reference === reference ? known : undefined;
    const hinted = given || !hints ? undefined : recent.hint(reference);
    const order =
      given ??
      hinted ??
      (await find({
        ...(reference === undefined ? {} : { reference }),
        ...(transactionId === undefined ? {} : { transactionId }),
      }));
    if (!order) {
      await store.recordUnmatched({
        source: event.source,
        ...(reference === undefined ? {} : { reference }),
        ...(transactionId === undefined ? {} : { transactionId }),
        ...(event.status === null ? {} : { status: event.status }),
        receivedAt: now(),
        ...(event.note === undefined ? {} : { note: event.note }),
        ...(event.unrecognised === undefined
          ? {}
          : { note: `unrecognised status "${event.unrecognised}"` }),
      });
      log?.warn(
        { reference, transactionId, source: event.source, status: event.status },
        "event for an unknown order recorded",
      );
      return { outcome: "unmatched", order: null, notifications: [] };
    }

    let statusChanged = false;
    let from = order.status;
    const result = await store.update(
      order.reference,
      (current) => {
        const t = transition(current, event);
        statusChanged = t.statusChanged;
        from = t.from;
        return t.changed ? { order: t.order, notifications: t.notifications } : null;
      },
      order,
    );
    if (!result) {
      return hinted
        ? applyOnce(input, undefined, false)
        : { outcome: "unmatched", order: null, notifications: [] };
    }
    // "Nothing to do" judged on a remembered order is judged again on a fresh read: another
    // process may have moved the order on since, and a write would have found that out, a no-op not.
    if (!result.updated && hinted) return applyOnce(input, undefined, false);
    if (!result.updated) return { outcome: "unchanged", order: result.order, notifications: [] };
    if (result.settlement && !result.settlement.ok) {
      // Cannot happen by construction (the hold is created with the order); loud if it does.
      log?.error(
        { reference: result.order.reference, refusal: result.settlement.refusal },
        "the order's hold could not be settled",
      );
    }
    for (const b of result.bookings ?? []) {
      // Ids derive from the reference and the fields from the order: a refusal is a bug.
      if (!b.ok)
        log?.error(
          { reference: result.order.reference, refusal: b.refusal },
          "an order's booking was refused",
        );
    }
    if (statusChanged) {
      metrics.transitions.inc({ from, to: result.order.status, source: event.source });
      log?.info(
        {
          reference: result.order.reference,
          from,
          to: result.order.status,
          source: event.source,
          note: event.note,
        },
        "order status changed",
      );
    }
    return {
      outcome: statusChanged ? "changed" : "recorded",
      order: result.order,
      notifications: result.notifications,
    };
  }

  async function place(raw: PlaceInput): Promise<Order> {
    const parsed = placeInputSchema.safeParse(raw);
    if (!parsed.success) {
      throw new OrderInputError(
        parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
      );
    }
    const input = parsed.data;
    // No look-up of the idempotency key first: create finds a known key before it writes anything
    // and hands back that order. Without a reference from a listing, create numbers the order in
    // the same step (a repeated place costs nothing); until then it carries a placeholder.
    const numbered = input.referenceNo === undefined;
    const reference = input.referenceNo ?? UNNUMBERED;
    const at = now();
    // The rest of the input is the order's own fields, its category and details included.
    const { referenceNo: _, executeReference, ...fields } = input;
    const exchange = exchangeOf(fields);
    const order: Order = {
      reference,
      ...(executeReference !== undefined && executeReference !== reference
        ? { executeReference }
        : {}),
      ...fields,
      // The face amount still goes to the aggregator; the price is what the customer pays.
      price: priceOf(fields),
      ...(exchange ? { exchange } : {}),
      ...(accessMode === "prepaid" ? { holdId: holdIdOf(reference) } : {}),
      status: "placed",
      history: [{ source: "system", status: "placed", at }],
      createdAt: at,
      updatedAt: at,
      version: 0,
    };
    try {
      // Refuse now what could never be executed, rather than at submit time.
      toExecuteRequest(order);
      orderSchema.parse(order);
    } catch (err) {
      const detail =
        err instanceof z.ZodError
          ? err.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")
          : String(err);
      throw new OrderInputError(detail);
    }
    let created: Awaited<ReturnType<OrderStore["create"]>>;
    try {
      created = await store.create(order, numbered ? { numbered: true } : undefined);
    } catch (err) {
      if (err instanceof HoldRefusedError && err.refusal.code === "insufficient_funds") {
        const r = err.refusal;
        throw new InsufficientFundsError(r.availablePaisa, r.amountPaisa, r.shortfallPaisa);
      }
      throw err;
    }
    if (created.created) {
      log?.info(
        {
          reference: created.order.reference,
          category: order.category,
          operatorId: order.operatorId,
        },
        "order placed",
      );
    }
    recent.remember(created.order);
    return created.order;
  }

  /**
   * Marks the order submitting (atomically, only from "placed"), sends the execute request once and
   * applies its outcome. An order already submitting or beyond is returned as it is: never sent
   * again, whatever the caller (a double tap, a replay after a crash) thinks; the reconciler decides.
   */
  async function submit(reference: string, o: SubmitOptions = {}): Promise<Order> {
    const { known, receiptMessageId } = o;
    let submitting = false;
    const marked = await store.update(
      reference,
      (current) => {
        submitting = false;
        // The receipt is remembered in the same write as the submitting mark (one step less).
        const base =
          receiptMessageId === undefined || current.receiptMessageId === receiptMessageId
            ? current
            : { ...current, receiptMessageId };
        const unchanged = base === current ? null : { order: base, notifications: [] };
        if (current.status !== "placed") return unchanged;
        const t = transition(base, {
          source: "system",
          status: "submitting",
          at: now(),
          expect: ["placed"],
        });
        if (!t.changed) return unchanged;
        submitting = true;
        return { order: t.order, notifications: t.notifications };
      },
      known?.reference === reference ? known : undefined,
    );
    if (!marked) throw new OrderNotFoundError(reference);
    recent.remember(marked.order);
    if (!marked.updated || !submitting) return marked.order;
    // The reconciler counts the execute's time in flight from the mark's stamp, and believes "no
    // such reference" once that window is over. A mark written late (Redis away, its command
    // queued meanwhile) would send the execute late into the window, where the order could be
    // failed (its hold released) while the aggregator still executes it. Past sendWindowMs it is
    // not sent: the order stays submitting and the reconciler fails it as never executed.
    const markedLateMs = now() - (marked.order.submittedAt ?? now());
    if (opts.sendWindowMs !== undefined && markedLateMs > opts.sendWindowMs) {
      log?.warn(
        { reference, markedLateMs, sendWindowMs: opts.sendWindowMs },
        "submitting mark written too late; execute not sent (the reconciler settles the order)",
      );
      return marked.order;
    }

    let result: ExecuteResult;
    try {
      result = await provider.execute(toExecuteRequest(marked.order));
    } catch (err) {
      // The client reports outcomes as values; anything thrown here is unexpected, and the request
      // may have left: treat it as unknown, never as failed.
      const detail = err instanceof Error ? err.message : String(err);
      result = { kind: "unknown", referenceNo: reference, reason: "network", detail };
    }
    const applied = await apply({ reference, ...eventFromExecute(result, now()) }, marked.order);
    const order = applied.order ?? marked.order;
    const reading = readingOf(result);
    if (reading && opts.onWalletReading) {
      // After the order's own step: the alert must never hold up or undo an order.
      await opts
        .onWalletReading({ reference, status: order.status, at: now(), ...reading })
        .catch((err: unknown) =>
          log?.error({ err: String(err), reference }, "the wallet reading was not recorded"),
        );
    }
    return order;
  }

  return {
    nextReference: () => store.nextReference(),
    /** Who pays for orders in this process. */
    accessMode,
    /** What the customer would pay for a draft (the schedule's quote). */
    priceOf,
    /** For a draft in ₹ paid from a Nepal-rupee balance: the rate and the NPR figures. */
    exchangeOf,
    place,
    submit,
    /** place then submit; returns the order after the execute outcome was applied. */
    async placeAndSubmit(input: PlaceInput): Promise<Order> {
      const order = await place(input);
      return submit(order.reference, { known: order });
    },
    apply,
    /** Remembers the chat message the notifier edits in place. Not a status change. */
    async attachReceipt(reference: string, messageId: number): Promise<Order | null> {
      const r = await store.update(reference, (current) =>
        current.receiptMessageId === messageId
          ? null
          : { order: { ...current, receiptMessageId: messageId }, notifications: [] },
      );
      recent.remember(r?.order);
      return r?.order ?? null;
    },
    get: (reference: string) => store.get(reference),
    getByTransactionId: (transactionId: string) => store.getByTransactionId(transactionId),
    listByUser: (userId: number, limit = 10, offset = 0) => store.listByUser(userId, limit, offset),
    listUnmatched: (limit = 50) => store.listUnmatched(limit),
    store,
    provider,
  };
}

export type Orders = ReturnType<typeof createOrders>;
