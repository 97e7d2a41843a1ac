import { z } from "zod";
import { REGIONS } from "../catalog/index.ts";
import type { AccessMode, Charges } from "./charges.ts";
import type { OrdersContext } from "./context.ts";
import { toExecuteRequest } from "./execute-request.ts";
import {
  categoryIdSchema,
  chargedPaisa,
  detailsSchema,
  holdIdOf,
  type Order,
  orderSchema,
  referenceSchema,
} from "./model.ts";
import type { OrderParts } from "./parts.ts";
import { HoldRefusedError, type OrderStore } from "./store.ts";

/** Placing an order: validated, priced and stored (with its hold) before anything is executed. */

const chatId = z.number().int().refine(Number.isSafeInteger);

/** A draft to place; its details must be those of its category (checked by the category's part). */
const placeInputSchema = z.object({
  category: categoryIdSchema,
  details: detailsSchema,
  /** Fixed by the caller when the confirmation is shown; placing with a known key is a no-op. */
  idempotencyKey: z.string().min(1).max(200),
  /** Our reference, minted earlier (mintReference) for a lookup the order is placed under. */
  reference: referenceSchema.optional(),
  /** The reference the listing returned, when the provider answered with another one. */
  executeReference: z.string().min(1).max(64).optional(),
  userId: chatId,
  chatId,
  locale: z.string().min(2).max(16).default("en"),
  region: z.enum(REGIONS),
  operatorId: z.number().int().positive(),
  operatorTypeId: z.number().int().positive(),
  operatorName: z.string().min(1),
  connectionNo: z.string().min(1),
  amountPaisa: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  /**
   * The figures the customer agreed to on the confirmation: the price's total (in the order's
   * currency) and what the balance pays in Nepal paisa; the fee, the discount and an India
   * order's rate when given. When the order priced now differs (a deploy changed the rate or the
   * schedule meanwhile), nothing is placed (PriceChangedError).
   */
  expected: z
    .object({
      totalPaisa: z.number().int().nonnegative(),
      chargedPaisa: z.number().int().nonnegative(),
      feePaisa: z.number().int().nonnegative().optional(),
      discountPaisa: z.number().int().nonnegative().optional(),
      rateE4: z.number().int().positive().optional(),
    })
    .optional(),
});
type Expected = NonNullable<z.output<typeof placeInputSchema>["expected"]>;

/** The figures a confirmation showed (place's `expected`): every line, not only the totals. */
export type ShownFigures = Expected;

/**
 * Whether the figures priced `now` are those `shown`, at every figure `shown` names: the same total
 * can hide another fee, discount or rate, which the receipt and the books (fee income) would then
 * show unconfirmed. The one comparison: the checkout's look before it reserves uses it too, so the
 * two never disagree (an order placed unreserved, or a reservation taken for a price refused).
 */
export function sameAsShown(
  now: Readonly<Partial<Record<keyof Expected, number>>>,
  shown: Expected,
): boolean {
  return (Object.keys(shown) as (keyof Expected)[]).every((k) => shown[k] === now[k]);
}

/** Whether `order` is priced at every figure `shown` names. */
function pricedAsShown(order: Order, shown: Expected): boolean {
  return sameAsShown(
    {
      totalPaisa: order.price?.totalPaisa,
      chargedPaisa: chargedPaisa(order),
      feePaisa: order.price?.feePaisa,
      discountPaisa: order.price?.discountPaisa,
      rateE4: order.exchange?.rateE4,
    },
    shown,
  );
}
export type PlaceInput = z.input<typeof placeInputSchema>;

export class OrderInputError extends Error {
  constructor(readonly detail: string) {
    super(`order refused: ${detail}`);
    this.name = "OrderInputError";
  }
}

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

/** The order priced now differs from the figures the customer confirmed: nothing was written. */
export class PriceChangedError extends Error {
  constructor() {
    super("the price changed since the confirmation");
    this.name = "PriceChangedError";
  }
}

/** The reference of an order the store numbers as it creates it, until then (a valid one). */
const UNNUMBERED = "1";

const issuesOf = (err: z.ZodError) =>
  err.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");

/** The order a valid input stands for, in "placed", priced for its customer. */
function draftOrder(
  input: z.output<typeof placeInputSchema>,
  charges: Charges,
  accessMode: AccessMode,
  at: number,
): Order {
  const reference = input.reference ?? UNNUMBERED;
  // The rest of the input is the order's own fields, its category and details included.
  const { reference: _, executeReference, expected: _shown, ...fields } = input;
  const exchange = charges.exchangeOf(fields);
  return {
    reference,
    ...(executeReference !== undefined && executeReference !== reference
      ? { executeReference }
      : {}),
    ...fields,
    // The face amount still goes to the aggregator; the price is what the customer pays.
    price: charges.priceOf(fields),
    ...(exchange ? { exchange } : {}),
    // The rate the aggregator's debit of a ₹ order is estimated at when no answer gives it.
    ...(!exchange && fields.region === "in" ? { inrToNprRateE4: charges.rateE4 } : {}),
    ...(accessMode === "prepaid" ? { holdId: holdIdOf(reference) } : {}),
    status: "placed",
    history: [{ source: "system", status: "placed", at }],
    createdAt: at,
    updatedAt: at,
    version: 0,
  };
}

/** Refuses now what could never be executed, rather than at submit time. */
function checkExecutable(order: Order, parts: OrderParts): void {
  try {
    toExecuteRequest(order, parts);
    orderSchema.parse(order);
  } catch (err) {
    throw new OrderInputError(err instanceof z.ZodError ? issuesOf(err) : String(err));
  }
}

/** The draft's details as its category's part reads them (strict: an unknown key is refused). */
function detailsOf(parts: OrderParts, input: { category: string; details: unknown }) {
  const part = parts.get(input.category);
  if (!part) throw new OrderInputError(`category: no category ${input.category} is registered`);
  const details = part.details.safeParse(input.details);
  if (!details.success) {
    throw new OrderInputError(
      details.error.issues.map((i) => `details.${i.path.join(".")}: ${i.message}`).join("; "),
    );
  }
  return details.data as Order["details"];
}

async function create(store: OrderStore, order: Order, numbered: boolean) {
  try {
    return await store.create(order, numbered ? { numbered: true } : undefined);
  } catch (err) {
    if (err instanceof HoldRefusedError && err.refusal.code === "insufficient_funds") {
      const r = err.refusal;
      throw new InsufficientFundsError(r.availablePaisa, r.amountPaisa, r.shortfallPaisa);
    }
    throw err;
  }
}

/** Durable before anything is sent; a known idempotency key returns the existing order. */
export function createPlace(ctx: OrdersContext, charges: Charges, accessMode: AccessMode) {
  return async function place(raw: PlaceInput): Promise<Order> {
    const parsed = placeInputSchema.safeParse(raw);
    if (!parsed.success) throw new OrderInputError(issuesOf(parsed.error));
    const input = { ...parsed.data, details: detailsOf(ctx.parts, parsed.data) };
    // No look-up of the idempotency key first: create finds a known key before it writes anything
    // and hands back that order. Without a reference from a listing, create numbers the order in
    // the same step (a repeated place costs nothing); until then it carries a placeholder.
    const numbered = input.reference === undefined;
    const order = draftOrder(input, charges, accessMode, ctx.now());
    const shown = input.expected;
    if (shown && !pricedAsShown(order, shown)) {
      // Placed before under this key (a Confirm run again), at the figures then: that order.
      const known = await ctx.store.getByIdempotencyKey(input.idempotencyKey);
      if (known) return known;
      throw new PriceChangedError();
    }
    checkExecutable(order, ctx.parts);
    const created = await create(ctx.store, order, numbered);
    if (created.created) {
      // Strings and a number only: the primitive-fields child (a third of a full line's CPU).
      ctx.transitionLog?.info(
        {
          reference: created.order.reference,
          category: order.category,
          operatorId: order.operatorId,
        },
        "order placed",
      );
    }
    ctx.recent.remember(created.order);
    return created.order;
  };
}
