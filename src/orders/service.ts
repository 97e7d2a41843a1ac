import type { Registry } from "prom-client";
import { type Logger, primitiveFieldsLogger } from "../logger.ts";
import type { PriceSchedule } from "../pricing/index.ts";
import { createApply } from "./apply.ts";
import { type AccessMode, createCharges } from "./charges.ts";
import type { AdminNote, FiguresOff, OrderRefund, OrdersContext } from "./context.ts";
import { createMoneyPathMetrics, type MoneyPathMetrics } from "./metrics.ts";
import type { Order } from "./model.ts";
import { type OrderPart, orderPartsOf } from "./parts.ts";
import { createPlace } from "./place.ts";
import type { OrdersProvider } from "./provider-events.ts";
import { recentOrders } from "./recent.ts";
import type { OrderSearch } from "./search.ts";
import { createSettle, samePersonOf, settleable } from "./settle.ts";
import type { OrderStore } from "./store.ts";
import { createSubmit, type WalletReading } from "./submit.ts";

/**
 * The orders service: place (place.ts, durable before execute), submit (submit.ts, mark
 * submitting, execute once), apply (apply.ts, the one door through which every outcome passes; no
 * status changes anywhere else). What the provider's answers mean is in provider-events.ts.
 */

export type { AccessMode } from "./charges.ts";
export {
  InsufficientFundsError,
  OrderInputError,
  type PlaceInput,
  PriceChangedError,
  type ShownFigures,
  sameAsShown,
} from "./place.ts";
export {
  answerAbout,
  eventFromExecute,
  eventFromStatus,
  isFloatRefusal,
  type OrdersProvider,
} from "./provider-events.ts";
export {
  needsApproval,
  type SamePerson,
  SETTLED_FAILED_MESSAGE,
  type Settleable,
  type SettleRequest,
  type SettleResult,
  samePersonOf,
  UNSURE_CAUSES,
  type UnsureCause,
} from "./settle.ts";
export type { SubmitOptions, WalletReading } from "./submit.ts";

export interface OrdersOptions {
  /** Told every wallet reading of an execute answer (src/books float watch); errors are logged. */
  onWalletReading?: (r: WalletReading) => Promise<unknown>;
  /** Told each order whose booked figures are off (books/figures-off.ts); errors are logged. */
  onFiguresOff?: (f: FiguresOff) => Promise<unknown>;
  /** Told each order moved by an event with a note for the admins (books/collision-alert.ts). */
  onAdminNote?: (n: AdminNote) => Promise<unknown>;
  store: OrderStore;
  /**
   * The categories' order parts (details, execute request), from the registry the composition
   * root hands in (src/categories/index.ts): orders are placed and executed only in these.
   */
  categories: readonly OrderPart[];
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
  /** An admin may settle an open order this old (SETTLE_AFTER_MS; settle.ts). Default 4 h. */
  settleAfterMs?: number;
  /**
   * SETTLE_ENABLED: /settle writes (a settlement, a proposal) only when on; older versions cannot
   * read them (docs/deploying.md). Default here: on (parts built by hand); config: off.
   */
  settleEnabled?: boolean;
  /** The admins' ids grouped by person (ADMIN_IDS `123=wa:+977…`): one person approves nothing of their own. */
  adminPeople?: readonly (readonly number[])[];
  /**
   * ADMIN_IDS: alerted once when the aggregator's own final word contradicts a final order no
   * admin settled (state.ts). Default: none (recorded on the order and logged only).
   */
  adminChatIds?: readonly number[];
  /** The complaint refund already booked for an order, told in a contradiction's alert (context.ts). */
  refundOf?: (reference: string) => Promise<OrderRefund | null>;
  logger?: Logger;
  now?: () => number;
  registry?: Registry;
  metrics?: MoneyPathMetrics;
}

export function createOrders(opts: OrdersOptions) {
  const { store, provider } = opts;
  const { accessMode } = opts;
  const ctx: OrdersContext = {
    store,
    now: opts.now ?? Date.now,
    log: opts.logger,
    transitionLog: opts.logger && primitiveFieldsLogger(opts.logger),
    metrics: opts.metrics ?? createMoneyPathMetrics(opts.registry),
    recent: recentOrders(),
    parts: orderPartsOf(opts.categories),
    adminChatIds: opts.adminChatIds ?? [],
    refundOf: opts.refundOf,
    onFiguresOff: opts.onFiguresOff,
    onAdminNote: opts.onAdminNote,
  };
  const charges = createCharges({
    pricing: opts.pricing,
    accessMode,
    inrToNprRateE4: opts.inrToNprRateE4,
  });
  const apply = createApply(ctx);
  const submit = createSubmit(ctx, {
    provider,
    apply,
    sendWindowMs: opts.sendWindowMs,
    onWalletReading: opts.onWalletReading,
  });
  const settleAfterMs = opts.settleAfterMs ?? DEFAULT_SETTLE_AFTER_MS;
  const settleEnabled = opts.settleEnabled ?? true;
  const settling = createSettle(ctx, {
    provider,
    apply,
    settleAfterMs,
    enabled: settleEnabled,
    samePerson: samePersonOf(opts.adminPeople),
  });
  return {
    nextReference: () => store.nextReference(),
    /** What the customer would pay for a draft (the schedule's quote). */
    priceOf: charges.priceOf,
    /** For a draft in ₹ paid from a Nepal-rupee balance: the rate and the NPR figures. */
    exchangeOf: charges.exchangeOf,
    /** What the daily spend cap counts for a draft, in Nepal paisa. */
    spendOf: charges.spendOf,
    place: createPlace(ctx, charges, accessMode),
    submit,
    apply,
    /** An admin settles an order the aggregator never ended (settle.ts). */
    settle: settling.settle,
    /** Withdraws or declines a settlement proposal waiting for approval (maker-checker). */
    withdrawSettle: settling.withdraw,
    /** Whether a second person must approve this admin's settlement (maker-checker). */
    settleNeedsApproval: settling.needsApproval,
    /** Whether two admins' chat ids are one person (ADMIN_IDS groups). */
    sameAdmin: settling.samePerson,
    /** Whether an admin may settle this order now (the service's clock, SETTLE_AFTER_MS). */
    settleable: (order: Order) => settleable(order, ctx.now(), settleAfterMs, settleEnabled),
    get: (reference: string) => store.get(reference),
    getByTransactionId: (transactionId: string) => store.getByTransactionId(transactionId),
    /** The order placed under an idempotency key (one exact look-up), whoever's newest it is behind. */
    getByIdempotencyKey: (key: string) => store.getByIdempotencyKey(key),
    listByUser: (userId: number, limit = 10, offset = 0) => store.listByUser(userId, limit, offset),
    listUnmatched: (limit = 50) => store.listUnmatched(limit),
    /** A claim against a final order: may it cost a status query now (store.takeClaimCheck)? */
    takeClaimCheck: (reference: string, at: number, cooldownMs: number) =>
      store.takeClaimCheck(reference, at, cooldownMs),
    search: (query: OrderSearch) => store.search(query),
    store,
    provider,
  };
}

export type Orders = ReturnType<typeof createOrders>;

/** SETTLE_AFTER_MS's default: 4 hours, well past the reconciler's stuck alert (1 hour). */
export const DEFAULT_SETTLE_AFTER_MS = 4 * 3_600_000;
