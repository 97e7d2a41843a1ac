import type { Order } from "../../orders/model.ts";
import type { SentMessage } from "../conversation-storage.ts";
import { receiptText, statusLabel } from "../order-texts.ts";
import type { FlowScope } from "./prompt-loop.ts";

/**
 * What follows a Confirm's place (checkout.ts): the order placed under a key looked up, the
 * receipt sent before the submitting mark and the execute, and the words for an order placed
 * before or in trouble after its place.
 */

/**
 * Whether this Confirm's order was placed already: a Confirm run again after an instance died
 * between the place and the conversation's save. A block made since applies to orders not yet
 * placed, never to one in flight, so such an order goes on to its receipt and submit.
 */
export async function placedBefore(s: FlowScope, userId: number, key: string): Promise<boolean> {
  return (await placedOrder(s, userId, key)) !== undefined;
}

/** What the chat is told of an order placed before: its reference and status. */
export type Placed = Pick<Order, "reference" | "status">;

/**
 * The order placed under `key`, if any: an exact look-up of the key, as place makes (not a scan
 * of the user's newest orders, which misses it once the user placed 20 more from another chat,
 * another device or through staff). Read through `external`, so a replay sees the same answer;
 * only the two fields are kept in the conversation's log, not the whole order. The key is this
 * conversation's own (a random UUID); an order of another user under it is not this one.
 */
export async function placedOrder(
  s: FlowScope,
  userId: number,
  key: string,
): Promise<Placed | undefined> {
  const found = await s.conversation.external(async () => {
    const order = await s.deps.orders.getByIdempotencyKey(key);
    return order && order.userId === userId
      ? { reference: order.reference, status: order.status }
      : null;
  });
  return found ?? undefined;
}

/** The confirmation's order was placed already: its reference and status now, in the flow's language. */
export async function saidPlaced(s: FlowScope, order: Placed): Promise<void> {
  await s.ctx.reply(
    s.t("confirm-placed-already", {
      ref: order.reference,
      status: statusLabel(s.t, order.status),
    }),
  );
}

/**
 * The receipt first (what the user waits for), then the submitting mark and the execute: the order
 * is held and its key fixed, so the receipt can say "submitting" before the execute leaves.
 */
export async function receiptAndSubmit(s: FlowScope, order: Order): Promise<Order> {
  const { conversation, ctx, deps } = s;
  try {
    // The order already has its receipt: this Confirm runs again (an instance died after showing
    // it, and Telegram sent the update to another; or the turn that placed it lost its save and
    // the confirmation was tapped again). A second receipt would never be edited (the order names
    // one) and would say "processing" for good; the first one is edited when the order moves. The
    // tap is answered with the order placed and its status, never with silence. An order placed
    // but not yet submitted is submitted.
    if (order.receiptMessageId !== undefined) {
      const now = await conversation.external(() =>
        deps.orders.submit(order.reference, { known: order }),
      );
      await saidPlaced(s, now);
      return now;
    }
    // Placed by a turn that died before its receipt, and moved on since (the reconciler failed it
    // as never submitted, its hold returned): a "submitting" receipt would be false and never
    // edited. Its reference and true status instead.
    if (order.status !== "placed") {
      await saidPlaced(s, order);
      return order;
    }
    const receipt: SentMessage = await ctx.reply(
      receiptText(s.t, { ...order, status: "submitting" }),
    );
    // The receipt is remembered with the submitting mark, on the order just placed (no read).
    const submitted = await conversation.external(() =>
      deps.orders.submit(order.reference, { known: order, receiptMessageId: receipt.message_id }),
    );
    // Failed meanwhile, before the mark (the reconciler, between the read and the mark): the
    // receipt just sent is never edited, so the true status follows it.
    if (submitted.submittedAt === undefined && submitted.status !== "placed") {
      await saidPlaced(s, submitted);
    }
    return submitted;
  } catch (err) {
    // The order exists and the execute may have left (and the wallet been debited): "try again"
    // could pay twice. The reconciler settles the order and the notifier tells the outcome.
    await orderTrouble(s, order, err);
    return order;
  }
}

/** An error after the order was placed: name the order, say it is checked and a message follows. */
async function orderTrouble(s: FlowScope, order: Order, err: unknown): Promise<void> {
  await s.conversation.external(() =>
    s.deps.logger.error(
      {
        reference: order.reference,
        err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err),
      },
      "checkout failed after the order was placed; the reconciler will settle it",
    ),
  );
  await s.ctx.reply(s.t("order-checking", { ref: order.reference })).catch(() => {});
}
