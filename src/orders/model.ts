import { z } from "zod";
import { CATEGORY_ID, REGIONS } from "../catalog/index.ts";
import { chatIdSchema as chatId, referenceSchema } from "./ids.ts";
import { orderStatusSchema } from "./order-status.ts";
import { MAX_PAYLOAD_CHARS } from "./payload.ts";

// Moved out for size (pure moves), named here still for every importer.
export { referenceSchema } from "./ids.ts";
export { type Notification, notificationKey, notificationSchema } from "./notification.ts";
export {
  isFinal,
  normalizeProviderStatus,
  ORDER_STATUSES,
  type OrderStatus,
  RECEIPT_RANK,
  STATUS_RANK,
} from "./order-status.ts";

/**
 * The order and everything that can happen to it, as zod schemas (types are derived, never written
 * twice). Money is integer paisa; times are epoch milliseconds.
 */

/** "admin": an admin's settlement of an order the aggregator never ended (settle.ts). */
export const EVENT_SOURCES = [
  "execute",
  "webhook",
  "status",
  "reconciler",
  "system",
  "admin",
] as const;
const eventSourceSchema = z.enum(EVENT_SOURCES);

const paisa = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** What the execute response says the order did to the merchant's wallet. */
const walletEffectsSchema = z.object({
  amountPaisa: paisa,
  serviceChargePaisa: paisa,
  instantDiscountPaisa: paisa,
  debitAmountPaisa: paisa,
  creditAvailablePaisa: z.number().int().nullable(),
  commissionPaisa: z.number().int().optional(),
  /**
   * Where the figures come from: the aggregator's execute answer (absent on orders recorded before
   * this field), or inferred from the order itself when the order became success without any
   * answer carrying them (the execute answer lost; status answers and webhooks carry no debit):
   * the face amount in the wallet's rupees (src/orders/inferred-debit.ts). The books count the
   * inferred ones apart (/books); the aggregator's own figures arriving later replace them.
   */
  source: z.enum(["execute", "inferred"]).optional(),
});
export type WalletEffects = z.infer<typeof walletEffectsSchema>;

/** What the customer pays (src/pricing quote): amount + fee - discount = total. */
const orderPriceSchema = z
  .object({
    amountPaisa: paisa,
    feePaisa: paisa,
    discountPaisa: paisa,
    totalPaisa: paisa,
  })
  .refine((p) => p.amountPaisa + p.feePaisa - p.discountPaisa === p.totalPaisa, {
    message: "total must be amount + fee - discount",
  });
export type OrderPrice = z.infer<typeof orderPriceSchema>;

/**
 * An order priced in Indian rupees and paid from a Nepal-rupee balance (an India order in prepaid
 * mode): the rate used (NPR per 1 INR, in ten-thousandths: 1.6 is 16000) and the Nepal-rupee
 * figures, each the ₹ figure converted and rounded up to the paisa (src/pricing/exchange.ts). The
 * hold takes `totalPaisa`; receipts show both currencies from these figures.
 */
const orderExchangeSchema = z
  .object({
    rateE4: z.number().int().positive(),
    totalPaisa: paisa,
    feePaisa: paisa,
  })
  .refine((x) => x.feePaisa <= x.totalPaisa, { message: "the fee must not exceed the total" });
export type OrderExchange = z.infer<typeof orderExchangeSchema>;

/** What the customer's balance pays for an order, in Nepal paisa: the converted total, else the price. */
export function chargedPaisa(order: {
  price?: OrderPrice | undefined;
  exchange?: OrderExchange | undefined;
}): number {
  return order.exchange?.totalPaisa ?? order.price?.totalPaisa ?? 0;
}

/** The ledger hold of an order: the transfer id derived from its reference (prepaid mode). */
export const holdIdOf = (reference: string): string => `order:${reference}`;

const historyEntrySchema = z.object({
  source: eventSourceSchema,
  /** The status the event claimed (null: a record only, e.g. an unconfirmed webhook claim). */
  status: orderStatusSchema.nullable(),
  at: z.number().int(),
  note: z.string().optional(),
  /** What the provider sent for this event (payload.ts: JSON, secrets hidden, bounded). */
  payload: z.string().max(MAX_PAYLOAD_CHARS).optional(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/**
 * The note of one counted "not found" answer of the status endpoint (the reconciler's, status
 * null: src/orders/reconcile-order.ts), "provider has no such reference (answer k of n)". The
 * answers are counted from the order's own history, so every process (and every version since
 * the count came in) sees the same count; the history cap keeps room for them (transition-kit.ts).
 */
export const NOT_FOUND_NOTE = "provider has no such reference";

/**
 * The start of the note of an execute refusal for the merchant's own wallet (provider-events.ts):
 * the back office shows it to admins only; an agent reads what the chat tells agents.
 */
export const FLOAT_SHORT_NOTE = "rejected: the merchant's wallet is short";

/**
 * The start of the note of an execute refused for the merchant's own access (provider-events.ts):
 * our token refused (401: a token is bound to one client IP), our IP forbidden (403), our request
 * rate exceeded (429). Such an order carries `floatShort` too (see there): the customer's words,
 * the released reservation and the agents' view are the same, and a version without this note
 * reads the order alike; the note tells the admins' alert (books/our-side-alert.ts) which it was.
 */
export const OUR_SIDE_NOTE = "rejected: refused on the merchant's side";

/**
 * Whether an order failed for an execute refused on the merchant's side (OUR_SIDE_NOTE): the
 * execute's step that failed it says so in its history entry (an execute is answered once).
 */
export const refusedOnOurSide = (order: Order): boolean =>
  order.floatShort === true &&
  order.status === "failed" &&
  order.history.some((h) => h.source === "execute" && h.note?.startsWith(OUR_SIDE_NOTE));

/** A counted "not found" answer (see NOT_FOUND_NOTE). */
export const isNotFoundAnswer = (h: HistoryEntry): boolean =>
  h.source === "reconciler" &&
  h.status === null &&
  (h.note ?? "").startsWith(`${NOT_FOUND_NOTE} (answer `);

/** A status word we could not read, kept apart from the history (see MAX_UNRECOGNISED). */
const unrecognisedEntrySchema = z.object({
  source: eventSourceSchema,
  at: z.number().int(),
  word: z.string().max(40),
});

/**
 * An admin's settlement of an order the aggregator never ended (settle.ts): who, why, what the
 * aggregator's status endpoint said just before, and the admins to alert when a later answer of
 * the aggregator contradicts it (final-order.ts; once, `contradictedAt`). The outcome is the order's
 * status, set by the same event.
 */
const settlementSchema = z.object({
  /** The admin who decided (with maker-checker: who proposed it). */
  by: chatId,
  /** Maker-checker (more than one admin): the other admin who approved the proposal. */
  approvedBy: chatId.optional(),
  /** Maker-checker: when the approved proposal was made (its identity with `by`; settle.ts). */
  proposedAt: z.number().int().optional(),
  reason: z.string().min(1).max(200),
  /** What the aggregator's status endpoint answered before the settlement (no final word). */
  aggregator: z.string().max(200),
  admins: z.array(chatId).max(50),
});
export type Settlement = z.infer<typeof settlementSchema>;

/**
 * An admin's proposal to settle an order, waiting for another admin's approval (maker-checker,
 * when more than one admin is configured; settle.ts). Nothing moves until it is approved.
 */
const settleProposalSchema = z.object({
  by: chatId,
  outcome: z.enum(["success", "failed"]),
  reason: z.string().min(1).max(200),
});

/** A category id as orders carry it (the registry's ids: lower-case words). */
export const categoryIdSchema = z.string().regex(CATEGORY_ID);

/** Details as the order model stores them; their category's part checked them at `place`. */
export const detailsSchema = z.record(z.string(), z.unknown());

/**
 * An order: the fields every category has, its `category` and that category's `details` (checked
 * at `place` by the category's part, src/categories/<id>/order.ts; see ./parts.ts).
 */
export const orderSchema = z.object({
  category: categoryIdSchema,
  details: detailsSchema,
  reference: referenceSchema,
  /**
   * The reference_no sent to execute, when it is not `reference`: data packs and DTH must carry the
   * reference their package listing returned (spec 4.1). Status queries and webhooks use this one.
   */
  executeReference: z.string().min(1).max(64).optional(),
  idempotencyKey: z.string().min(1).max(200),
  userId: chatId,
  chatId,
  locale: z.string().min(2).max(16),
  region: z.enum(REGIONS),
  operatorId: z.number().int().positive(),
  operatorTypeId: z.number().int().positive(),
  operatorName: z.string().min(1),
  connectionNo: z.string().min(1),
  amountPaisa: paisa.refine((n) => n > 0, "amount must be positive"),
  /** The customer's price, fixed when the order was placed (absent on orders placed before). */
  price: orderPriceSchema.optional(),
  /** Paid from a balance in another currency (India in prepaid mode): the rate and the NPR figures. */
  exchange: orderExchangeSchema.optional(),
  /**
   * An India order nobody's balance pays (staff mode): the configured rate (NPR per 1 INR, in
   * ten-thousandths) when it was placed, so the aggregator's debit worked out from its ₹ amount
   * (inferred-debit.ts) uses INR_TO_NPR_RATE, not a built-in one. `exchange` has it otherwise.
   */
  inrToNprRateE4: z.number().int().positive().optional(),
  /**
   * The ledger hold paying for this order (customer:<userId> -> merchant:sales, chargedPaisa: the price's total, or
   * for an order in ₹ its Nepal-rupee equivalent),
   * taken by the store in the same atomic step that creates the order; the final transition posts
   * it (success) or voids it (failed), in the same step as the status change. Absent: nobody pays.
   */
  holdId: z.string().min(1).max(128).optional(),
  /**
   * The customer's available balance (paisa, Nepal wallet) right after this order's last money
   * step: its hold at create, then its post or void at the step into a final state; what the
   * customer could spend at that moment, other orders' holds taken out. Written by the store in
   * that same atomic step, so a receipt or push shows it however late it goes out. Prepaid only.
   */
  balanceAfterPaisa: z.number().int().optional(),
  transactionId: z.string().min(1).optional(),
  status: orderStatusSchema,
  /** The chat message (receipt) the notifier edits in place. */
  receiptMessageId: z.number().int().optional(),
  wallet: walletEffectsSchema.optional(),
  /**
   * The own words of the event that set the current status, if it had any (shown to the user on
   * failure). Never carried over from an earlier status: "accepted and queued" is no failure reason.
   */
  providerMessage: z.string().optional(),
  history: z.array(historyEntrySchema),
  /**
   * Status words nobody understood (newest last, bounded), apart from `history` so a sender of junk
   * cannot crowd real events out of it. Absent on orders that never got one.
   */
  unrecognised: z.array(unrecognisedEntrySchema).optional(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  /** When the order was marked submitting, i.e. just before the execute request left. */
  submittedAt: z.number().int().optional(),
  /**
   * The aggregator refused the order for the merchant's own side, never executing it: its wallet
   * (float) short, or (note OUR_SIDE_NOTE, refusedOnOurSide) its token, IP or request rate. The
   * customer is told the service is briefly unavailable (and, refused on our side, that nothing
   * was charged), never the merchant's balance or credentials; the reservation of their daily
   * limit is released. One
   * field for both, so every version reads an order of either alike (a rolling deploy).
   */
  floatShort: z.literal(true).optional(),
  /** Still not final after the reconciler's maximum age; admins were alerted once. */
  flaggedAt: z.number().int().optional(),
  /**
   * Made final by an admin (settle.ts), at `at`, since the aggregator never gave a final word; the
   * hold was posted or voided by that step. `contradictedAt`: a later answer of the aggregator
   * said the opposite (recorded and alerted once; no money moved). `confirmedAt`: a later final
   * answer of the aggregator said the same (recorded once). Either is its final word: the
   * reconciler stops asking (settled-watch.ts).
   */
  settled: settlementSchema
    .extend({
      at: z.number().int(),
      contradictedAt: z.number().int().optional(),
      /** The aggregator's reversal word that contradicted it (a complaint's refund screen shows it). */
      contradictedWord: z.string().max(40).optional(),
      confirmedAt: z.number().int().optional(),
    })
    .optional(),
  /**
   * A final order no admin settled that the aggregator's own final word (a status answer, an
   * execute answer: never a webhook claim alone) later contradicted: what it said, when, through
   * which source. Recorded with a history entry and alerted to the admins once (final-order.ts); no
   * money moved. Absent: never contradicted (a settled order records it on `settled`).
   */
  contradicted: z
    .object({
      at: z.number().int(),
      said: z.enum(["success", "failed"]),
      source: eventSourceSchema,
      /** The aggregator's own word `said` was read from (a reversal word, reversal.ts): shown as said. */
      word: z.string().max(40).optional(),
    })
    .optional(),
  /**
   * When the aggregator's figures for it were found off what it asked (an amount other than the
   * one sent, a debit far from the face amount: figures-check.ts): recorded with a history entry
   * and alerted to the admins once; booked as reported all the same.
   */
  figuresOffAt: z.number().int().optional(),
  /** Proposed by one admin, waiting for another's approval (cleared when the order is final). */
  settleProposal: settleProposalSchema.extend({ at: z.number().int() }).optional(),
  /** Optimistic-concurrency version, incremented by every store write. */
  version: z.number().int().nonnegative(),
});
export type Order = z.infer<typeof orderSchema>;

/**
 * Something that happened to an order, from one of the three sources (or the system itself). The
 * only input of the state machine.
 */
export const orderEventSchema = z.object({
  source: eventSourceSchema,
  /** Claimed status; null records the event in the history without a status change. */
  status: orderStatusSchema.nullable(),
  at: z.number().int(),
  note: z.string().max(300).optional(),
  transactionId: z.string().min(1).optional(),
  providerMessage: z.string().max(500).optional(),
  /** The answer, webhook or status reply behind the event (payloadOf), kept in its history entry. */
  payload: z.string().max(MAX_PAYLOAD_CHARS).optional(),
  /**
   * A status word we could not read (status must then be null): recorded in the order's bounded
   * `unrecognised` list, not in its history.
   */
  unrecognised: z.string().max(40).optional(),
  wallet: walletEffectsSchema.optional(),
  /** The aggregator refused for the merchant's float or access (see the order's `floatShort`). */
  floatShort: z.literal(true).optional(),
  /** Apply only while the order is in one of these states (checked atomically with the write). */
  expect: z.array(orderStatusSchema).optional(),
  /**
   * For the admins (ADMIN_IDS), once per order: from the step that moves the order to this event's
   * status (an execute refused for a reference the aggregator already holds) or first records it
   * (a status answer about another recharge on it, answer-fits.ts; an answer giving the order
   * another order's transaction id, taken-transaction.ts). Told after the write, within an overall
   * limit (OrdersContext.onAdminNote, books/hourly-alert.ts).
   */
  adminNote: z.string().max(500).optional(),
  /**
   * From a status answer about another recharge under the order's reference (answer-fits.ts):
   * recorded once on an open order, never applied; a final one untouched (state.ts).
   */
  otherRecharge: z.literal(true).optional(),
  /** Flag the order as stuck and alert these admins (once per order). */
  flag: z.object({ adminChatIds: z.array(chatId) }).optional(),
  /** An admin's settlement (source "admin", a final status): recorded on the order as `settled`. */
  settle: settlementSchema.optional(),
  /** An admin proposes a settlement (status null): recorded as `settleProposal`, admins told. */
  propose: settleProposalSchema.extend({ admins: z.array(chatId).max(50) }).optional(),
  /** An admin withdraws or declines the proposal waiting on the order (status null). */
  withdraw: z
    .object({
      by: chatId,
      /** The proposal withdrawn or declined, as its admin was shown it (its admin and time): one
       * withdrawn and made anew meanwhile is another, and is left alone. */
      proposal: z.object({ by: chatId, at: z.number().int() }),
      /** Another person declined it (not its proposer from any of their chats): the proposer is told. */
      declined: z.boolean().optional(),
    })
    .optional(),
});
export type OrderEvent = z.infer<typeof orderEventSchema>;

/** A webhook or status event that names an order we do not have; kept for an admin to look at. */
export const unmatchedEventSchema = z.object({
  source: eventSourceSchema,
  reference: z.string().optional(),
  transactionId: z.string().optional(),
  status: z.string().optional(),
  amountPaisa: z.number().int().nullable().optional(),
  receivedAt: z.number().int(),
  note: z.string().optional(),
});
export type UnmatchedEvent = z.infer<typeof unmatchedEventSchema>;
