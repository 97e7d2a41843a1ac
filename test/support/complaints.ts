import {
  type Complaints,
  createComplaints,
  createMemoryComplaintStore,
} from "../../src/complaints/index.ts";
import { createMemoryLedger } from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import type { Notification, Order } from "../../src/orders/model.ts";

/**
 * Complaints as a customer raises them and an admin resolves them, for the tests that need one
 * on an order before what they check (the books, the order's page, the notice).
 */

/**
 * Customer `userId`'s complaint that order `orderReference` was not received, raised from their
 * own chat unless `chatId` is given, in English unless `locale` is; its reference. A refusal
 * fails the test.
 */
export async function raisedComplaint(
  complaints: Pick<Complaints, "raise">,
  userId: number,
  orderReference: string,
  opts: { chatId?: number; locale?: string } = {},
): Promise<string> {
  const r = await complaints.raise({
    userId,
    chatId: opts.chatId ?? userId,
    locale: opts.locale ?? "en",
    orderReference,
    reason: "not_received",
  });
  if (!r.ok) throw new Error("not raised");
  return r.complaint.reference;
}

/**
 * That complaint raised, then resolved by admin `by` (1 unless given) with `text` ("sorry" unless
 * given) and a refund of `refundPaisa`: its reference and the resolve's answer, for the test to
 * check.
 */
export async function refundedComplaint(
  complaints: Pick<Complaints, "raise" | "resolve">,
  userId: number,
  orderReference: string,
  refundPaisa: number,
  opts: { chatId?: number; locale?: string; text?: string; by?: number } = {},
) {
  const reference = await raisedComplaint(complaints, userId, orderReference, opts);
  const done = await complaints.resolve(reference, opts.by ?? 1, {
    text: opts.text ?? "sorry",
    refundPaisa,
  });
  return { reference, done };
}

/** A successful order of `userId` for `paisa` plus `feePaisa`, paid from the balance, held as `order:<ref>`. */
export function paidOrder(reference: string, userId: number, paisa: number, feePaisa = 0): Order {
  return {
    reference,
    userId,
    status: "success",
    holdId: `order:${reference}`,
    price: { amountPaisa: paisa, feePaisa, discountPaisa: 0, totalPaisa: paisa + feePaisa },
  } as Order;
}

/**
 * The complaints service on memory stores, whose only order is `order`: its store and the
 * notices it queued in the outbox (`queued`).
 */
export function memoryComplaints(order: Order) {
  const queued: Notification[] = [];
  const store = createMemoryComplaintStore({
    ledger: createMemoryLedger(),
    outbox: { append: (ns) => queued.push(...ns) },
  });
  const service = createComplaints({
    store,
    orders: { get: async (ref) => (ref === order.reference ? order : null) },
    logger: createLogger({ level: "silent" }),
  });
  return { store, service, queued };
}
