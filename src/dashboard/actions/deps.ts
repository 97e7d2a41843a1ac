import type {
  BalanceMoved,
  BalanceMoveInput,
  BalanceMoveResult,
  NumberChange,
  Phone,
  Receipt,
  ReverseResult,
} from "../../accounts/index.ts";
import type { Complaints } from "../../complaints/index.ts";
import type {
  AccessMode,
  ListOpenOptions,
  Order,
  Settleable,
  SettleRequest,
  SettleResult,
  UnmatchedEvent,
} from "../../orders/index.ts";
import type {
  DecideResult,
  HeldDecision,
  RefundDecideResult,
  TopUp,
} from "../../payments/index.ts";
import type { PriceSchedule } from "../../pricing/index.ts";

/**
 * What the back office's money actions and alerts need (issue 29, h-actions): the chat's OWN
 * services, so a reversal or a held top-up's decision from the browser is the very operation
 * /reverse and /topups run (the same ids, the same idempotency, the same gateway lookup before a
 * credit). The composition root passes the instances it built for the chat.
 */
export interface ActionDeps {
  /** src/accounts createAccounts: /reverse's operation and the receipts it reads. */
  accounts: {
    receipt(id: string): Promise<Receipt | null>;
    reverse(input: {
      originalId: string;
      adminUserId: number;
      reason: string;
    }): Promise<ReverseResult>;
    phoneOf(userId: number): Promise<Phone | null>;
    /** A customer's whole spendable balance to another customer (accounts/balance-move.ts). */
    moveBalance?(input: BalanceMoveInput): Promise<BalanceMoveResult>;
  };
  /**
   * Tells both customers of a balance move what moved, in their chat and language, each once
   * (conversations/cash/move-notices.ts); absent, nobody is told.
   */
  tellMoved?: (r: BalanceMoved) => Promise<void>;
  /** WhatsApp customers who changed number, newest first (accounts/number-changes.ts). */
  numberChanges?: { list(limit: number): Promise<NumberChange[]> };
  /**
   * Tells the people a reversal concerns, in their chat and language, as /reverse does: the party
   * (the customer of a cash-in, the agent of a credit) and a cash-in's agent, each once across the
   * chat and the back office (the root builds it on the chat's sender and the chat's own telling);
   * absent, nobody is told. Whatever is not delivered is logged there.
   */
  tellReversed?: (r: {
    original: Receipt;
    reversalId: string;
    reason: string;
    /** The party's available balance after (the reversal's debited side). */
    partyBalancePaisa: number;
    /** A cash-in's agent's available balance after (the reversal's credited side). */
    agentBalancePaisa: number;
  }) => Promise<void>;
  /** src/payments createTopUps: /topups' operations; absent when no gateway is configured. */
  topUps?: {
    gateway: string;
    held(limit?: number): Promise<TopUp[]>;
    get(paymentId: string): Promise<TopUp | null>;
    /** A credit only while the gateway's figure is `shownPaisa`, the one the form showed. */
    decide(
      paymentId: string,
      d: HeldDecision,
      adminId: number,
      shownPaisa?: number,
    ): Promise<DecideResult>;
    /** Partial refunds waiting for the amount returned, and the admin's entry of it. */
    partialRefunds(limit?: number): Promise<TopUp[]>;
    /** Open top-ups past the refund watch, and when they were listed (their age counts from it). */
    pastWatch(limit?: number): Promise<{ at: number; topUps: TopUp[]; unreadable?: string[] }>;
    decideRefund(
      paymentId: string,
      returnedPaisa: number,
      adminId: number,
    ): Promise<RefundDecideResult>;
    /** The rejection of a partial refund seen before any credit (nothing credited). */
    rejectRefund(paymentId: string, adminId: number): Promise<RefundDecideResult>;
    /** A user's top-ups not final yet (a balance move waits for them: balance-move.ts). */
    notFinalOf?(userId: number): Promise<TopUp[]>;
  };
  /** src/complaints createComplaints: /complaints' operations (list, take, resolve, reject). */
  complaints?: Pick<
    Complaints,
    "get" | "listOpen" | "take" | "resolve" | "reject" | "refundableOf" | "ofUser" | "refundOf"
  >;
  /** The order store's open set and the provider events that named no order. */
  orders: {
    listOpen(opts: ListOpenOptions): Promise<Order[]>;
    listUnmatched(limit: number): Promise<UnmatchedEvent[]>;
  };
  /**
   * The chat's /settle (src/orders/settle.ts): an order the aggregator never ended, settled by an
   * admin with a reason after SETTLE_AFTER_MS; `adminIds` are told (read on each use).
   */
  settle?: {
    settle(request: SettleRequest): Promise<SettleResult>;
    /** Withdraws or declines the proposal shown (its admin and time; maker-checker). */
    withdraw(
      reference: string,
      adminId: number,
      proposal: { by: number; at: number },
    ): Promise<Order | null>;
    settleable(order: Order): Settleable;
    adminIds(): readonly number[];
    /** Whether a second person must approve this admin's settlement (ADMIN_IDS groups). */
    needsApproval(admins: readonly number[], adminId: number): boolean;
    /** Whether two admins' chat ids are one person (ADMIN_IDS `123=wa:+977…`). */
    sameAdmin(a: number, b: number): boolean;
  };
  /**
   * Maker-checker for the float's movements on the books page: the admins configured (ADMIN_IDS)
   * and whether two ids are one person (its `=` groups). Absent, a proposer never approves their own.
   */
  admins?: { ids(): readonly number[]; same(a: number, b: number): boolean };
  /**
   * Queues an admin alert with `note` (English, as the other admin alerts) for `chatIds` in the
   * notifier's outbox, once per `once` (the books' crossings): a float movement waiting for a
   * second admin, or its decision told to its proposer. Absent, nobody is told in the chat.
   */
  alertAdmins?: (once: string, chatIds: readonly number[], note: string) => Promise<void>;
  /** An open order older than this is stuck (RECONCILE_MAX_AGE_MS, as the reconciler's alert). */
  stuckAfterMs: number;
  /** The price schedule in force (config.pricing.schedule). */
  priceSchedule: PriceSchedule;
  /** Who pays (config.accessMode): in staff mode the schedule does not apply, orders cost their face amount. */
  accessMode: AccessMode;
}
