import { referenceCollision } from "../provider/execute.ts";
import type { ExecuteRequest, Region } from "../provider/requests.ts";
import { type ExecuteResult, type StatusResult, sameReference } from "../provider/schemas.ts";
import {
  notAppliedNote,
  otherAmount,
  otherNumber,
  otherRechargeNote,
  statusCollisionNote,
} from "./answer-fits.ts";
import { inferredWallet } from "./inferred-debit.ts";
import {
  FLOAT_SHORT_NOTE,
  normalizeProviderStatus,
  type Order,
  type OrderEvent,
  OUR_SIDE_NOTE,
  type WalletEffects,
} from "./model.ts";
import { payloadOf } from "./payload.ts";

/**
 * What the provider's answers mean to an order: an execute answer, a status query's or a webhook's
 * status, turned into the order event `apply` takes. Pure: no I/O here.
 */

/** What the orders service needs of the provider client (createProviderClient satisfies it). */
export interface OrdersProvider {
  execute(req: ExecuteRequest): Promise<ExecuteResult>;
  /** By the reference the provider knows the order by (providerReference). */
  statusByReference(region: Region, reference: string): Promise<StatusResult>;
}

/**
 * Whether the aggregator refused an order for the merchant's own wallet. The spec names no code for
 * it (section 7: "not shown"), so its words decide, in either order: "Insufficient balance: Rs
 * 500.00 needed, ..." and "Wallet balance is insufficient" (review s32-books 3: taken as a plain
 * refusal, the customer read those words as the reason, and no admin was told).
 */
export function isFloatRefusal(message: string): boolean {
  return SHORT_FIRST.test(message) || WALLET_FIRST.test(message);
}

const SHORT_FIRST =
  /\b(insufficient|not enough|not sufficient|low)\b[^.]{0,20}\b(balance|credit|fund|wallet)/i;
const WALLET_FIRST =
  /\b(balance|credits?|funds?|wallet)\b[^.]{0,20}\b(insufficient|not enough|not sufficient|too low|low)\b/i;

/**
 * The event an execute outcome stands for, with the answer as read (payloadOf). An India order's
 * answer without `debit_amount` worked its debit out in ₹: the books (in Nepal rupees) get the
 * estimate from the order at its rate instead, marked inferred, so /books counts it apart and a
 * later answer with the figure replaces it (float-fix).
 */
export function eventFromExecute(result: ExecuteResult, at: number, order?: Order): OrderEvent {
  const event = { ...executeEvent(result, at), payload: payloadOf(result) };
  if (result.kind !== "accepted" || result.debitReported !== false) return event;
  if (order?.region !== "in" || !event.wallet) return event;
  const { creditAvailablePaisa, commissionPaisa } = event.wallet;
  const wallet = { ...inferredWallet(order), creditAvailablePaisa };
  return {
    ...event,
    wallet: commissionPaisa === undefined ? wallet : { ...wallet, commissionPaisa },
  };
}

/**
 * The admins' words for an execute refused as a reference the aggregator already holds, from its
 * message (the answer's, or the order's `providerMessage` when the flush's repair tells it).
 */
export function collisionNote(message: string): string {
  return `the aggregator refused the execute as a duplicate of a reference it already holds ("${message.slice(0, 80)}"). Ours is sent once, so that is another recharge's: a reference counter set back (a restore?). The order failed (a prepaid order's hold returned); check the counter (docs/backup-restore.md).`;
}

/**
 * An answer in the success envelope whose own status is "failed" for the merchant's wallet (spec 3:
 * "failed" is an execution response's status too): the same refusal as a rejected one saying so.
 * Taken as a plain failure, the customer read "Insufficient balance" as the reason (a false word
 * about their own balance), no admin was told and the reservation was kept.
 */
/**
 * The HTTP statuses of an execute refused for the merchant's own access, never the customer's
 * doing (review s33-rvprov, 3): 401 our token (provider-notes: a token is bound to one client IP,
 * so an instance behind another egress IP gets 401 on every execute), 403 our IP forbidden, 429
 * our rate exceeded. Spec 7 puts them with the client errors, the request refused ("not
 * authenticated", "too many requests; retry later"): not executed (provider/execute.ts maps them
 * to rejected), so the order fails with nothing charged.
 */
const OUR_SIDE_STATUSES: ReadonlySet<number> = new Set([401, 403, 429]);

const refusedOurSide = (result: ExecuteResult): boolean =>
  result.kind === "rejected" && OUR_SIDE_STATUSES.has(result.httpStatus);

/** What a refusal on our side asks the admins to check, by its HTTP status. */
const OUR_SIDE_CAUSE: Readonly<Record<number, string>> = {
  401: "our token was not accepted (a token is bound to one client IP: check this deployment's egress IP and the token)",
  403: "our requests are forbidden (an IP whitelist? check this deployment's egress IP)",
  429: "we exceeded the aggregator's request rate",
};

/**
 * The admins' words for an execute refused on the merchant's side: the HTTP status and the
 * aggregator's words (the token already redacted by the client: transport.clean), never the token.
 */
export function ourSideNote(httpStatus: number, message: string): string {
  const cause = OUR_SIDE_CAUSE[httpStatus] ?? "the aggregator refused our access";
  return `the aggregator refused the execute on our side: HTTP ${httpStatus} ("${message.slice(0, 80)}"): ${cause}. Not executed: the order failed, nothing charged (a prepaid order's hold returned), the reservation of the customer's daily limit released, the customer told the service is briefly unavailable.`;
}

/** The HTTP status an order refused on our side was refused with, from its history (OUR_SIDE_NOTE). */
export function ourSideStatusOf(order: Order): number {
  const note = order.history.find((h) => h.note?.startsWith(OUR_SIDE_NOTE))?.note ?? "";
  return Number(/\(HTTP (\d{3})\)/.exec(note)?.[1] ?? 0);
}

const acceptedFloatShort = (result: ExecuteResult): boolean =>
  result.kind === "accepted" &&
  normalizeProviderStatus(result.status) === "failed" &&
  isFloatRefusal(result.message);

function executeEvent(result: ExecuteResult, at: number): OrderEvent {
  switch (result.kind) {
    case "accepted":
      return {
        source: "execute",
        status: normalizeProviderStatus(result.status) ?? "queued",
        at,
        transactionId: result.transactionId,
        ...(result.message ? { providerMessage: result.message.slice(0, 500) } : {}),
        ...(acceptedFloatShort(result)
          ? { note: `${FLOAT_SHORT_NOTE} (answered failed)`, floatShort: true as const }
          : {}),
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
      if (OUR_SIDE_STATUSES.has(result.httpStatus)) return ourSideEvent(result, at);
      const floatShort = !result.rateLimited && isFloatRefusal(result.message);
      if (referenceCollision(result.httpStatus, result.message)) {
        return {
          source: "execute",
          status: "failed",
          at,
          note: `rejected: reference already held by the aggregator (HTTP ${result.httpStatus})`,
          providerMessage: result.message.slice(0, 500),
          adminNote: collisionNote(result.message),
        };
      }
      return {
        source: "execute",
        status: "failed",
        at,
        note: floatShort
          ? `${FLOAT_SHORT_NOTE} (HTTP ${result.httpStatus})`
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

/**
 * An execute refused on the merchant's side (OUR_SIDE_STATUSES): failed as a float refusal is
 * (`floatShort`: the customer told the service is briefly unavailable, their reservation released,
 * the agents shown no words), its note saying which, and the admins told (adminNote: at most one
 * alert an hour, books/our-side-alert.ts). Never a float reading: no false low-float alert.
 */
function ourSideEvent(
  result: Extract<ExecuteResult, { kind: "rejected" }>,
  at: number,
): OrderEvent {
  return {
    source: "execute",
    status: "failed",
    at,
    note: `${OUR_SIDE_NOTE} (HTTP ${result.httpStatus})`,
    providerMessage: result.message.slice(0, 500),
    floatShort: true,
    adminNote: ourSideNote(result.httpStatus, result.message),
  };
}

/** The wallet reading an execute answer carries, if any (for the low-float alert). */
export function readingOf(
  result: ExecuteResult,
): { creditAvailablePaisa?: number; refused: boolean } | null {
  if (result.kind === "accepted" && result.creditAvailablePaisa !== null)
    return {
      creditAvailablePaisa: result.creditAvailablePaisa,
      refused: acceptedFloatShort(result),
    };
  if (acceptedFloatShort(result)) return { refused: true };
  if (
    result.kind === "rejected" &&
    !refusedOurSide(result) &&
    !result.rateLimited &&
    isFloatRefusal(result.message)
  )
    return { refused: true };
  return null;
}

/**
 * A status answer checked against the reference asked (spec 4.6: `data.order_id` echoes it, in
 * whatever form the provider writes it: sameReference; the client refuses an answer without one). An answer about another order is thrown as a failed
 * query: applied, it would give an order with no transaction id yet (its execute timed out) the
 * other order's outcome.
 */
/** A status answer that names another order than the one asked about: it says nothing of ours. */
export class OtherReferenceError extends Error {
  constructor(
    readonly said: string,
    readonly asked: string,
  ) {
    super(`status answer about reference ${said}, not ${asked}`);
    this.name = "OtherReferenceError";
  }
}

export function answerAbout(answer: StatusResult, asked: string): StatusResult {
  // The echo may be a number, padded with spaces or without a text reference's leading zeros:
  // the same order (sameReference); any other reference is refused.
  if (!sameReference(answer.referenceNo, asked))
    throw new OtherReferenceError(answer.referenceNo, asked);
  return answer;
}

/**
 * The event a status-query answer stands for; an unrecognised status word is recorded only. The
 * answer is checked against the order first (answer-fits.ts), here so every caller that applies
 * one (the reconciler, the webhook's confirmation, /settle, the settled watch) does: an answer
 * about another recharge under our reference is never taken as ours (otherRechargeEvent), and a
 * success for another amount carries a wallet inferred from the answered amount, so the float
 * agrees with the aggregator's debit and the figures check records and alerts it (figures-check.ts).
 */
export function eventFromStatus(
  order: Order,
  result: StatusResult,
  source: "status" | "reconciler" | "webhook",
  at: number,
  note?: string,
): OrderEvent {
  // The aggregator's own transaction id for the order names its recharge: a number echoed in
  // another form (an ISP login with its realm, a DTH box's id) is not another recharge's (review
  // s33-rvprov, 2: such an answer left a paid order open for good, its success never told).
  const other = ourTransaction(order, result) ? null : otherNumber(order, result);
  if (other !== null) return otherRechargeEvent(order, result, other, source, at);
  const status = normalizeProviderStatus(result.status);
  const base = { source, at, transactionId: result.transactionId, payload: payloadOf(result) };
  if (status === null) return { ...base, status: null, unrecognised: result.status.slice(0, 40) };
  const amount = status === "success" ? otherAmount(order, result) : null;
  return {
    ...base,
    status,
    ...(note === undefined ? {} : { note }),
    ...(amount === null ? {} : { wallet: answeredWallet(order, amount) }),
  };
}

/** Whether a status answer names the transaction the aggregator gave this order. */
const ourTransaction = (order: Order, result: StatusResult): boolean =>
  order.transactionId !== undefined && result.transactionId === order.transactionId;

/** The debit inferred for a success answered for another amount than the order's (₹ or Rs). */
function answeredWallet(order: Order, amountPaisa: number): WalletEffects {
  const { price: _sent, ...rest } = order;
  return inferredWallet({ ...rest, amountPaisa });
}

/**
 * A status answer about another recharge under our reference (review s31-orders, 1): recorded,
 * never applied (no status, its transaction id not carried: it is the other recharge's); the order
 * stays open with its hold and the reconciler keeps asking. Its number differing is an inference
 * (the spec's "number or user id": an id may be echoed in another form), and failing a recharge the
 * aggregator executed would refund it and tell the customer a false word, so an admin decides with
 * /settle. An order the aggregator never gave a transaction id (its execute answer lost: maybe
 * refused as the duplicate of the other recharge, a counter set back) is told to the admins through
 * the collision alert, once per order (state.ts otherRechargeStep).
 */
function otherRechargeEvent(
  order: Order,
  result: StatusResult,
  said: string,
  source: "status" | "reconciler" | "webhook",
  at: number,
): OrderEvent {
  const what = otherRechargeNote(order, result, said).slice(0, 280);
  const base = { source, at, payload: payloadOf(result), otherRecharge: true as const };
  const event = { ...base, status: null, note: notAppliedNote(what) };
  if (order.transactionId !== undefined) return event;
  return { ...event, adminNote: statusCollisionNote(what) };
}
