import type { I18n } from "@grammyjs/i18n";
import type { Context } from "grammy";
import type { AccessVerdict, Accounts } from "../accounts/index.ts";
import type { BooksReport } from "../books/index.ts";
import type { Catalog } from "../catalog/index.ts";
import type { Complaints } from "../complaints/index.ts";
import type { Logger } from "../logger.ts";
import type { SpendLimits } from "../orders/index.ts";
import type { Order } from "../orders/model.ts";
import type { OrderSearch, OrderSearchPage } from "../orders/search.ts";
import type {
  AccessMode,
  Settleable,
  SettleRequest,
  SettleResult,
  SubmitOptions,
} from "../orders/service.ts";
import type {
  DecideResult,
  HeldDecision,
  RefundDecideResult,
  StartResult,
  TopUp,
} from "../payments/index.ts";
import type { NprCharge, Quote } from "../pricing/index.ts";
import type { ProviderClient } from "../provider/index.ts";
import type { DueReminder } from "../reminders/index.ts";
import type { SavedStore } from "../saved/index.ts";
import type { BotContext } from "./context.ts";
import type { IdleDeadlines } from "./idle.ts";
import { channelIdOf, type SamePerson } from "./person.ts";

/** The fields of a draft, kept per category (a water draft has water details). */
type DraftFields<O> = O extends Order
  ? Pick<
      O,
      | "category"
      | "region"
      | "operatorId"
      | "operatorTypeId"
      | "operatorName"
      | "connectionNo"
      | "amountPaisa"
      | "details"
    >
  : never;

/** What a confirmed conversation hands to the orders service (ids and chat come from the flow). */
export type OrderDraft = { reference?: string; executeReference?: string } & DraftFields<Order>;

/** What a draft's price is computed from. */
export type PricedDraft = Pick<OrderDraft, "category" | "operatorId" | "amountPaisa" | "region">;

export type PlaceInput = OrderDraft & {
  idempotencyKey: string;
  /** Our reference, minted earlier (mintReference) for a lookup; absent: the store numbers it. */
  reference?: string;
  userId: number;
  chatId: number;
  locale: string;
  /** The confirmation's figures: placing at others is refused (PriceChangedError). */
  expected?: {
    totalPaisa: number;
    chargedPaisa: number;
    feePaisa?: number;
    discountPaisa?: number;
    rateE4?: number;
  };
};

/** The part of the orders service the bot uses. */
export interface BotOrders {
  /** Durable before anything is sent; a known idempotency key returns the existing order. */
  place(input: PlaceInput): Promise<Order>;
  /** A fresh reference_no, e.g. for a package listing whose reference the execute must carry. */
  nextReference(): Promise<string>;
  /**
   * Marks the order submitting and executes it once; a replay that finds it submitting or beyond
   * sends nothing and returns the order as stored.
   */
  submit(reference: string, opts?: SubmitOptions): Promise<Order>;
  get(reference: string): Promise<Order | null>;
  getByTransactionId(transactionId: string): Promise<Order | null>;
  /**
   * The order placed under an idempotency key (one exact look-up, however many orders the user
   * placed since): a confirmation's own order after its save was lost.
   */
  getByIdempotencyKey(key: string): Promise<Order | null>;
  /** Newest first; `offset` skips that many of the newest (history paging). */
  listByUser(userId: number, limit: number, offset?: number): Promise<Order[]>;
  /** One page of a search through the store's indexes (/history's month and number). */
  search(query: OrderSearch): Promise<OrderSearchPage>;
  /** Admins: settle an order the aggregator never ended (src/orders/settle.ts, /settle). */
  settle(request: SettleRequest): Promise<SettleResult>;
  /** Admins: withdraw or decline the settlement proposal waiting on an order (maker-checker). */
  withdrawSettle(
    reference: string,
    adminId: number,
    proposal: { by: number; at: number },
  ): Promise<Order | null>;
  /** Whether an admin may settle this order now: not final, sent, older than SETTLE_AFTER_MS. */
  settleable(order: Order): Settleable;
  /** Whether a second person must approve this admin's settlement (ADMIN_IDS groups one person). */
  settleNeedsApproval(admins: readonly number[], adminId: number): boolean;
  /** Whether two admins' chat ids are one person (ADMIN_IDS `123=wa:+977…`). */
  sameAdmin(a: number, b: number): boolean;
}

export interface BotSettings {
  agentIds: readonly number[];
  adminIds: readonly number[];
  /** Staff mode: who may order besides agents and admins (STAFF_IDS). */
  staffIds?: readonly number[];
  /** An unanswered question ends the conversation after this long. */
  idleMs: number;
  dailyCapPaisa: number;
}

/** Who pays, as the chat sees it (ACCESS_MODE, the price schedule, the customer's balance). */
export interface BotPayment {
  mode: AccessMode;
  /** What the customer pays for a draft: the figures the confirm screen shows and the hold takes. */
  priceOf(draft: PricedDraft): Quote;
  /**
   * For a draft priced in ₹ and paid from the Nepal-rupee balance (India, prepaid): the rate and
   * the NPR figures the hold takes. Undefined when the balance pays the price as it is.
   */
  exchangeOf?(draft: PricedDraft): NprCharge | undefined;
  /**
   * What the daily spend cap (Nepal rupees) counts for a draft, in Nepal paisa: what the balance
   * pays, fee included; an India amount converted. Absent: the price's total.
   */
  spendOf?(draft: PricedDraft): number;
  /** The customer's available balance (posted credits minus debits and holds), in paisa. */
  availablePaisa(userId: number): Promise<number>;
  /**
   * May this user spend at all (registered in prepaid mode, listed in staff mode)? `early`: the
   * user's access flags as the update's early read found them (null: no key), when it read them
   * (src/accounts/access-flags.ts); absent, they are read now.
   */
  access(userId: number, early?: Buffer | null): Promise<AccessVerdict>;
}

/** Adding money online (src/payments/), as the chat uses it. */
export interface BotTopUps {
  minPaisa: number;
  maxPaisa: number;
  /** What the daily cap still allows this user today. */
  remainingToday(userId: number): Promise<number>;
  /** Opens a checkout at the gateway; the payment URL is in the result. */
  start(input: {
    userId: number;
    chatId: number;
    locale: string;
    amountPaisa: number;
    /** An order's confirmation waits for it: the credited notice offers Continue. */
    resume?: boolean;
  }): Promise<StartResult>;
  /** Admins: top-ups held for a decision (a lookup that did not match what was initiated). */
  held(limit?: number): Promise<TopUp[]>;
  /**
   * Admins: credit what was asked, what was paid (within the caps), or reject; a credit only while
   * the gateway's figure is `shownPaisa`, the one on the admin's button.
   */
  decide(
    paymentId: string,
    decision: HeldDecision,
    adminId: number,
    shownPaisa?: number,
  ): Promise<DecideResult>;
  /** Admins: top-ups waiting in partial_refund for the amount the gateway returned. */
  partialRefunds(limit?: number): Promise<TopUp[]>;
  /** Admins: open top-ups past the refund watch (looked up daily), and when they were listed. */
  pastWatch(limit?: number): Promise<{ at: number; topUps: TopUp[]; unreadable?: string[] }>;
  get(paymentId: string): Promise<TopUp | null>;
  /**
   * Admins: write off, with a reason, what a refunded top-up still owes back (its balance was
   * short then and never rose: review s31-pay, 4b), booked from merchant:adjustments.
   */
  writeOffRefund?(
    paymentId: string,
    adminId: number,
    reason: string,
  ): Promise<
    | { ok: true; topUp: TopUp; writtenOffPaisa: number }
    | { ok: false; reason: "unknown" | "nothing_owed" | "reason" | "ledger_refused" }
  >;
  /** Admins: the amount the gateway returned of a partial refund (as the back office's form). */
  decideRefund(
    paymentId: string,
    returnedPaisa: number,
    adminId: number,
  ): Promise<RefundDecideResult>;
  /** Admins: reject a partial refund seen before any credit (nothing credited). */
  rejectRefund(paymentId: string, adminId: number): Promise<RefundDecideResult>;
}

/**
 * What the chat needs from the parts below it, every field given (the composition root builds
 * them: src/system/bot.ts; tests through it). Only the online top-ups are optional: a deployment
 * without a payment gateway has none, and /addmoney says so.
 */
export interface BotDeps {
  catalog: Catalog;
  provider: ProviderClient;
  orders: BotOrders;
  limits: SpendLimits;
  /** When a waiting question times out (idle.ts): the sweeper sends the notice on time. */
  idle: IdleDeadlines;
  payment: BotPayment;
  /** The admin's books (/books). */
  books: { report(): Promise<BooksReport> };
  /** Registration, cash-in, credits, reversals (src/accounts/). */
  accounts: Accounts;
  /** Who a Telegram user acts as (a linked WhatsApp-born account): the bot's middleware (person.ts). */
  persons: SamePerson;
  i18n: I18n<BotContext>;
  settings: BotSettings;
  logger: Logger;
  /** Saved numbers and billers (src/saved/). */
  saved: SavedStore;
  /**
   * Holds the Redis connection's writes to the end of the event-loop turn (orders/redis-batch.ts):
   * reads begun together then leave in one socket write. Absent without Redis.
   */
  holdWrites?: () => void;
  /** Absent: no gateway configured (/addmoney says so). */
  topUps?: BotTopUps;
  /**
   * A user who blocked the bot and comes back with /start gets notifications again: the chat,
   * and the account its flows push to when that is not the chat (a WhatsApp number's fresh
   * account: whatsapp/chat-ids.ts `pushChatOf`), marked inactive by an undeliverable push of its own.
   */
  reactivateChat(chatId: number, userId?: number): Promise<void>;
  /**
   * Whether the chat is marked inactive, asked by an update whose early read has no answer (no
   * Redis, or a turn that had to wait: bot/reactivate.ts); absent, such an update reactivates.
   */
  isChatInactive?(chatId: number): Promise<boolean>;
  /**
   * Ends the chat's flow, session and idle deadline (chat-state.ts): its number was released
   * from its account (/waid release), whose half-done flow its next holder must not carry on.
   */
  forgetChat(chatId: number): Promise<void>;
  /**
   * Whether a WhatsApp chat's customer wrote within the 24-hour window (whatsapp/chat-store.ts
   * `lastInbound`); false without WhatsApp. A link code goes to a WhatsApp-born account only then
   * (conversations/register/link.ts).
   */
  waWindowOpen(chatId: number): Promise<boolean>;
  /** The customer's reminders (src/reminders/): /reminders and "Stop these reminders". */
  reminders?: BotReminders;
  /** Customers' complaints on orders (src/complaints/); absent: /complain says it is not offered. */
  complaints?: Complaints;
}

/** Reminders as the chat sees them: what is coming, and turning them off (or back on). */
export interface BotReminders {
  /** What is coming, whether all are off, and the numbers stopped one by one (until all back on). */
  list(userId: number): Promise<{ upcoming: DueReminder[]; allOff: boolean; stopped: string[] }>;
  setOff(userId: number, which: readonly string[] | "all", off: boolean): Promise<void>;
}

export type Role = "customer" | "agent" | "admin";

/**
 * The role of whoever sent the update: of its channel id (the Telegram user, or the WhatsApp chat),
 * never of the person it acts as (bot/person.ts `channelIdOf`).
 */
export function roleIn(settings: BotSettings, ctx: Context): Role {
  return roleOf(settings, channelIdOf(ctx));
}

/** Whether the id is an agent's or an admin's (they are never linked to another account). */
export function isStaffId(
  settings: Pick<BotSettings, "adminIds" | "agentIds">,
  id: number,
): boolean {
  return settings.adminIds.includes(id) || settings.agentIds.includes(id);
}

/** The role a channel id is given by ADMIN_IDS and AGENT_IDS (admin wins). */
export function roleOf(settings: BotSettings, userId: number | undefined): Role {
  if (userId === undefined) return "customer";
  if (settings.adminIds.includes(userId)) return "admin";
  if (settings.agentIds.includes(userId)) return "agent";
  return "customer";
}
