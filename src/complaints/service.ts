import type { Logger } from "../logger.ts";
import type { Order } from "../orders/model.ts";
import { type Complaint, type ComplaintReason, complaintRefSchema, isClosed } from "./model.ts";
import {
  type ChangeRefusal,
  type ComplaintAction,
  canChange,
  dueAtOf,
  type RefundRefusal,
  type Reversed,
  refundableOf,
  refundTransfer,
  statusAfter,
} from "./rules.ts";
import type { ComplaintNotice, ComplaintStore } from "./store.ts";

/**
 * Complaints as the chat and the back office run them: a customer raises one on their order (one
 * open per order: a second gets the open one), an admin takes it, resolves it (with a refund in
 * the books, or with words alone) or rejects it with why. Each change is a compare-and-set on the
 * complaint that queues the customer's notice in the notifier's outbox in the same step (the
 * notifier sends it once, retried as an order's final push is), so a repeated tap or POST changes
 * nothing and tells nobody twice, and a failed send is tried again. A raise queues one "raised"
 * alert per admin in the same step as the complaint (review s33-rvcomp 4: told straight after the
 * write, a crash in between or a send that gave up told no admin). A refund is one transfer whose
 * id is the complaint's, booked in the same step as the resolution.
 */

export type RaiseResult =
  | { ok: true; created: boolean; complaint: Complaint }
  /** No such order, or not this customer's. */
  | { ok: false; code: "unknown_order" };

export type ChangeResult =
  | { ok: true; complaint: Complaint }
  | { ok: false; code: "unknown" }
  | { ok: false; code: ChangeRefusal; complaint: Complaint }
  | {
      ok: false;
      code: RefundRefusal | "too_much" | "already_refunded" | "ledger_refused";
      complaint: Complaint;
    };

export interface ComplaintsOptions {
  store: ComplaintStore;
  orders: { get(reference: string): Promise<Order | null> };
  logger: Logger;
  now?: () => number;
  /** Who is told of a new complaint: each admin's chat gets a "raised" alert, once. */
  admins?: readonly number[];
  /**
   * What else a whole refund (all the order charged) undoes: the order's reminder. A partial one
   * (Rs 5 back on a wrong amount) leaves the plan running, so it is not called. A failure is
   * only logged.
   */
  refunded?: (c: Complaint) => Promise<void>;
}

const MAX_TRIES = 5;

interface Ctx {
  opts: ComplaintsOptions;
  now: () => number;
  get(ref: string): Promise<Complaint | null>;
}

/** The refund a resolution may book on this complaint, or why none. */
async function refundable(
  ctx: Ctx,
  c: Complaint,
): Promise<
  | { ok: true; paisa: number; reversed?: Reversed }
  | { ok: false; code: RefundRefusal | "already_refunded" }
> {
  const order = await ctx.opts.orders.get(c.orderReference);
  if (!order) return { ok: false, code: "not_paid_by_customer" };
  const r = refundableOf(order);
  if (!r.ok) return r;
  // Read to answer early (and for refunds booked before the store's refund mark existed); the
  // store's update refuses a second refund of the order atomically whatever this read misses.
  const earlier = await ctx.opts.store.ofOrder(c.orderReference);
  if (earlier.some((e) => e.reference !== c.reference && e.closing?.refund)) {
    return { ok: false, code: "already_refunded" };
  }
  return r;
}

/** One change, retried on a version race with a fresh read (the rules decide again). */
async function change(
  ctx: Ctx,
  ref: string,
  action: ComplaintAction,
  adminId: number,
  words?: { text: string; refundPaisa?: number },
): Promise<ChangeResult> {
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const c = await ctx.get(ref);
    if (!c) return { ok: false, code: "unknown" };
    const refused = canChange(c.status, action);
    if (refused) return { ok: false, code: refused, complaint: c };
    const at = ctx.now();
    const next: Complaint =
      action === "take"
        ? { ...c, status: "taken", taken: { by: adminId, at } }
        : {
            ...c,
            status: statusAfter(action),
            closing: { by: adminId, at, text: words?.text ?? "" },
          };
    let refund: ReturnType<typeof refundTransfer> | undefined;
    let whole = false;
    const asked = words?.refundPaisa;
    if (action === "resolve" && asked !== undefined) {
      const can = await refundable(ctx, c);
      if (!can.ok) return { ok: false, code: can.code, complaint: c };
      if (asked <= 0 || asked > can.paisa) return { ok: false, code: "too_much", complaint: c };
      refund = refundTransfer(c, asked, words?.text ?? "");
      whole = asked === can.paisa;
      next.closing = { ...next.closing!, refund: { transferId: refund.id, amountPaisa: asked } };
    }
    const r = await ctx.opts.store.update(c.version, next, refund, noticeOf(next, at));
    if (!r.ok && r.reason === "version") continue;
    if (!r.ok && r.reason === "refunded")
      return { ok: false, code: "already_refunded", complaint: c };
    if (!r.ok) return { ok: false, code: "ledger_refused", complaint: c };
    const written = { ...next, version: c.version + 1 };
    if (refund && whole) await afterRefund(ctx, written);
    return { ok: true, complaint: written };
  }
  throw new Error(`complaint ${ref}: ${MAX_TRIES} version races in a row`);
}

async function afterRefund(ctx: Ctx, c: Complaint): Promise<void> {
  try {
    await ctx.opts.refunded?.(c);
  } catch (err) {
    ctx.opts.logger.warn({ complaint: c.reference, err: String(err) }, "after a refund: not done");
  }
}

/** The customer's notice of a change (queued with it): which change, of which complaint. */
function noticeOf(c: Complaint, at: number): ComplaintNotice | undefined {
  if (c.status === "logged") return undefined;
  const { reference, orderReference, chatId, status } = c;
  return { kind: "complaint", reference: orderReference, complaint: reference, status, chatId, at };
}

/**
 * The complaint whose refund was booked on this order, if any: the order's exact refund mark,
 * else (a refund booked before the mark existed) among the order's own complaints.
 */
export async function refundingComplaintOf(
  store: Pick<ComplaintStore, "refundOf" | "get" | "ofOrder">,
  orderRef: string,
): Promise<Complaint | null> {
  const ref = await store.refundOf(orderRef);
  if (ref !== null) return store.get(ref);
  return (await store.ofOrder(orderRef)).find((c) => c.closing?.refund) ?? null;
}

/** The refund booked for the order (which complaint, how much, when), as an order's alert tells it. */
export async function orderRefundOf(
  store: Pick<ComplaintStore, "refundOf" | "get" | "ofOrder">,
  orderRef: string,
): Promise<{ complaint: string; paisa: number; at: number } | null> {
  const c = await refundingComplaintOf(store, orderRef);
  const refund = c?.closing?.refund;
  if (!c?.closing || !refund) return null;
  return { complaint: c.reference, paisa: refund.amountPaisa, at: c.closing.at };
}

/**
 * The refunds booked for a page of orders (/history), by order reference: one read of the orders'
 * refund marks, then only the refunding complaints (few). A refund booked before the marks existed
 * is marked at start (refund-marks.ts), so the page does not look through each order's complaints.
 */
export async function orderRefundsOf(
  store: Pick<ComplaintStore, "refundsOf" | "get">,
  orderRefs: readonly string[],
): Promise<Map<string, { complaint: string; paisa: number; at: number }>> {
  const marks = await store.refundsOf(orderRefs);
  const found = await Promise.all(
    marks.map(async (ref, i) => {
      const c = ref === null ? null : await store.get(ref);
      const refund = c?.closing?.refund;
      if (!c?.closing || !refund) return null;
      const fact = { complaint: c.reference, paisa: refund.amountPaisa, at: c.closing.at };
      return [orderRefs[i] ?? "", fact] as const;
    }),
  );
  return new Map(found.filter((f) => f !== null));
}

export function createComplaints(opts: ComplaintsOptions) {
  const { store } = opts;
  const now = opts.now ?? Date.now;
  const get = async (ref: string) =>
    complaintRefSchema.safeParse(ref).success ? store.get(ref) : null;
  const ctx: Ctx = { opts, now, get };

  return {
    get,
    listOpen: (limit = 50) => store.listOpen(limit),
    countOpen: () => store.countOpen(),
    /** The clock the complaints' times are on (their due times), for the lists' "left" and "ago". */
    now,
    ofUser: (userId: number, limit = 10) => store.ofUser(userId, limit),
    /**
     * The complaint whose refund was booked on this order, if any: the order's exact refund mark,
     * else (a refund booked before the mark existed) among the order's own complaints.
     */
    refundOf: (orderRef: string) => refundingComplaintOf(store, orderRef),
    /** The refunds booked for these orders (which complaint, how much, when), by order. */
    refundsOf: (orderRefs: readonly string[]) => orderRefundsOf(store, orderRefs),
    /** The order's open complaint, if any. */
    async openOf(orderRef: string): Promise<Complaint | null> {
      return (await store.ofOrder(orderRef)).find((c) => !isClosed(c.status)) ?? null;
    },
    /** What a resolution of this complaint may refund (the order's paid total), or why nothing. */
    async refundableOf(ref: string) {
      const c = await get(ref);
      return c ? refundable(ctx, c) : ({ ok: false, code: "not_paid_by_customer" } as const);
    },

    /** A customer's complaint on their own order; a second while one is open gets that one. */
    async raise(input: {
      userId: number;
      chatId: number;
      locale: string;
      orderReference: string;
      reason: ComplaintReason;
    }): Promise<RaiseResult> {
      const order = await opts.orders.get(input.orderReference);
      if (!order || order.userId !== input.userId) return { ok: false, code: "unknown_order" };
      const createdAt = now();
      const reference = await store.nextReference();
      const alerts = (opts.admins ?? []).map(
        (chatId): ComplaintNotice => ({
          kind: "complaint",
          reference: order.reference,
          complaint: reference,
          status: "raised",
          chatId,
          at: createdAt,
        }),
      );
      const r = await store.open(
        {
          reference,
          orderReference: order.reference,
          userId: input.userId,
          chatId: input.chatId,
          locale: input.locale,
          reason: input.reason,
          status: "logged",
          version: 0,
          createdAt,
          dueAt: dueAtOf(input.reason, createdAt),
        },
        alerts,
      );
      return { ok: true, created: r.created, complaint: r.complaint };
    },

    take: (ref: string, adminId: number) => change(ctx, ref, "take", adminId),
    /** Resolved with what was done (the customer reads it), and a refund of `refundPaisa` when given. */
    resolve: (ref: string, adminId: number, words: { text: string; refundPaisa?: number }) =>
      change(ctx, ref, "resolve", adminId, words),
    reject: (ref: string, adminId: number, why: string) =>
      change(ctx, ref, "reject", adminId, { text: why }),
  };
}

export type Complaints = ReturnType<typeof createComplaints>;
