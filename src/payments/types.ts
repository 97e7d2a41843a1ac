import type { LedgerStore } from "../ledger/store.ts";
import type { Logger } from "../logger.ts";
import type { PaymentGateway } from "./gateway/port.ts";
import type { TopUp } from "./model.ts";
import type { TopUpStore } from "./store.ts";

/** What the top-up service is built from, and what its parts answer. */

export interface TopUpNotice {
  chatId: number;
  audience: "customer" | "admin";
  /**
   * Admin notices: a refund reversed a credit, a partial refund (after a credit or before any)
   * waits for the admin's figure, a top-up is held, the books refused a transfer, or no end in
   * sight.
   */
  reason?: AlertReason;
  topUp: TopUp;
  /** The customer's available balance after the change (customer notices). */
  balancePaisa?: number;
  /**
   * The admins' unknown-word alert: when the refund watch ends (until then a Refunded reverses
   * the credit by itself).
   */
  refundWatchUntil?: number;
}

/**
 * The admins' alert of a stored top-up record that does not parse (review s23-d, 1): there is no
 * top-up to show, only its name; the reconciler has taken it off its schedule.
 */
export interface UnreadableNotice {
  chatId: number;
  gateway: string;
  paymentId: string;
}

export interface TopUpsOptions {
  store: TopUpStore;
  gateway: PaymentGateway;
  ledger: LedgerStore;
  /** Sends one notice; throws when it could not (the reconciler tries again). */
  notify: (n: TopUpNotice) => Promise<void>;
  /**
   * Whether `notify`'s failure is for good (the chat blocked the bot or is gone, or the channel
   * refuses the message itself): the customer's push is then given up, not tried again. Absent:
   * every failure is tried again, with a backoff.
   */
  undeliverable?: (err: unknown) => boolean;
  /**
   * Sends the admins' alert of an unreadable record; absent: only logged. Throws when it could
   * not (the reconciler tries again).
   */
  notifyUnreadable?: (n: UnreadableNotice) => Promise<void>;
  /**
   * The gateway refused to start a checkout for a reason that does not pass by itself (`refusal`),
   * or started one (null): the admins are told once per such spell, across processes
   * (src/system/topup-refused.ts). Absent: only logged.
   */
  initiateRefused?: (refusal: { kind: string; detail: string } | null, at: number) => Promise<void>;
  logger: Logger;
  now?: () => number;
  maxPaisa: number;
  dailyCapPaisa: number;
  /** Our return page (absolute, no query). */
  returnUrl: string;
  websiteUrl: string;
  adminChatIds: readonly number[];
  /** How often an open top-up is looked up. */
  lookupEveryMs: number;
  /** How long after the credit a refund is watched for, and how often. */
  refundWatchMs: number;
  refundCheckEveryMs: number;
}

export type AlertReason =
  | "refund"
  | "ledger_refused"
  | "stuck"
  | "held"
  | "partial_refund"
  /** A credited top-up's refund check got a status word the gateway does not document. */
  | "unknown_status";

export type DecideResult =
  | { ok: true; topUp: TopUp }
  | {
      ok: false;
      reason:
        | "unknown"
        | "not_held"
        | "paid_less"
        | "above_cap"
        | "currency"
        | "ledger_refused"
        | "gateway_disagrees"
        | "gateway_unavailable";
    }
  /**
   * Held on a status word the gateway does not document, and it still does not say Completed:
   * `said`, what it says now, in its words (an unknown word quoted); `final`, it will not say
   * Completed (refunded, expired, cancelled): reject it.
   */
  | { ok: false; reason: "not_completed"; said: string; final: boolean }
  /**
   * The gateway's figure (`reportedPaisa`, now stored) is not the one the admin was shown:
   * nothing credited; the admin decides again on the new figure.
   */
  | { ok: false; reason: "figure_changed"; reportedPaisa: number; shownPaisa: number };

/** An admin's figure for a partial refund, or the rejection of an uncredited one (partial-refund.ts). */
export type RefundDecideResult =
  | { ok: true; topUp: TopUp }
  | {
      ok: false;
      reason:
        | "unknown"
        | "not_partial"
        | "amount"
        | "ledger_refused"
        // Before any credit only: the rest is above the caps, the payer is credited nothing, or
        // the gateway no longer reports the payment so (asked again before the rest is credited).
        | "above_cap"
        | "credited"
        | "gateway_disagrees"
        | "gateway_unavailable";
    };

export type StartResult =
  | { ok: true; topUp: TopUp }
  | { ok: false; reason: "below" | "above"; limitPaisa: number }
  | { ok: false; reason: "daily_cap"; remainingPaisa: number }
  /** The gateway did not answer (a timeout, a 5xx): worth trying again in a few minutes. */
  | { ok: false; reason: "unavailable" }
  /**
   * The gateway refused the request (a wrong key, a field it rejects, an answer we cannot read):
   * it does not pass by itself; the admins are told (`initiateRefused`).
   */
  | { ok: false; reason: "refused" };
