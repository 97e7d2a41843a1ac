import type { ExecuteResult } from "../provider/schemas.ts";
import type { Apply } from "./apply.ts";
import type { OrdersContext } from "./context.ts";
import { executeContradicts } from "./contradicts.ts";
import { toExecuteRequest } from "./execute-request.ts";
import type { Order } from "./model.ts";
import type { OrderParts } from "./parts.ts";
import { eventFromExecute, type OrdersProvider, readingOf } from "./provider-events.ts";
import { transition } from "./state.ts";

/**
 * Submitting an order: marks it submitting (atomically, only from "placed"), sends the execute
 * request once and applies its outcome. An order already submitting or beyond is returned as it
 * is: never sent again, whatever the caller (a double tap, a replay after a crash) thinks; the
 * reconciler decides.
 */

export interface SubmitOptions {
  /** The order as the caller last wrote or read it: saves the read before the write. */
  known?: Order;
  /** The chat message to edit with later statuses, remembered with the submitting mark. */
  receiptMessageId?: number;
}

class OrderNotFoundError extends Error {
  constructor(readonly reference: string) {
    super(`no order ${reference}`);
    this.name = "OrderNotFoundError";
  }
}

/** What one execute answer told about the merchant's wallet (for the low-float alert). */
export interface WalletReading {
  reference: string;
  /** Settles once the execute's answer is written: only an alert needs to wait for it. */
  status: Order["status"] | Promise<Order["status"]>;
  at: number;
  /** The wallet after the order, when the aggregator said it. */
  creditAvailablePaisa?: number;
  /** The aggregator refused the order for the wallet being short. */
  refused: boolean;
}

export interface SubmitDeps {
  provider: OrdersProvider;
  apply: Apply;
  /** The longest the submitting mark may take to be written for the execute still to be sent. */
  sendWindowMs: number | undefined;
  onWalletReading: ((r: WalletReading) => Promise<unknown>) | undefined;
}

/**
 * The submitting mark, with the receipt remembered in the same write (one step less). It stays a
 * write of its own, not folded into the create: the receipt can only follow the create, and its
 * id must be stored before the execute leaves, or a kill or an early webhook leaves the receipt
 * unedited (docs/performance.md, h-status).
 */
async function markSubmitting(ctx: OrdersContext, reference: string, o: SubmitOptions) {
  const { known, receiptMessageId } = o;
  let submitting = false;
  const marked = await ctx.store.update(
    reference,
    (current) => {
      submitting = false;
      const base =
        receiptMessageId === undefined || current.receiptMessageId === receiptMessageId
          ? current
          : { ...current, receiptMessageId };
      const unchanged = base === current ? null : { order: base, notifications: [] };
      if (current.status !== "placed") return unchanged;
      const t = transition(base, {
        source: "system",
        status: "submitting",
        at: ctx.now(),
        expect: ["placed"],
      });
      if (!t.changed) return unchanged;
      submitting = true;
      return { order: t.order, notifications: t.notifications };
    },
    known?.reference === reference ? known : undefined,
  );
  if (!marked) throw new OrderNotFoundError(reference);
  ctx.recent.remember(marked.order);
  return { marked: marked.order, send: marked.updated && submitting };
}

/** The execute's answer; anything thrown is unexpected and the request may have left: unknown. */
async function execute(
  provider: OrdersProvider,
  parts: OrderParts,
  order: Order,
  reference: string,
): Promise<ExecuteResult> {
  try {
    return await provider.execute(toExecuteRequest(order, parts));
  } catch (err) {
    // The client reports outcomes as values: never treat a throw as failed.
    const detail = err instanceof Error ? err.message : String(err);
    return { kind: "unknown", referenceNo: reference, reason: "network", detail };
  }
}

export function createSubmit(ctx: OrdersContext, deps: SubmitDeps) {
  const { log, now } = ctx;
  return async function submit(reference: string, o: SubmitOptions = {}): Promise<Order> {
    const { marked, send } = await markSubmitting(ctx, reference, o);
    if (!send) return marked;
    // The reconciler counts the execute's time in flight from the mark's stamp, and believes "no
    // such reference" once that window is over. A mark written late (Redis away, its command
    // queued meanwhile) would send the execute late into the window, where the order could be
    // failed (its hold released) while the aggregator still executes it. Past sendWindowMs it is
    // not sent: the order stays submitting and the reconciler fails it as never executed.
    const markedLateMs = now() - (marked.submittedAt ?? now());
    if (deps.sendWindowMs !== undefined && markedLateMs > deps.sendWindowMs) {
      log?.warn(
        { reference, markedLateMs, sendWindowMs: deps.sendWindowMs },
        "submitting mark written too late; execute not sent (the reconciler settles the order)",
      );
      return marked;
    }
    const result = await execute(deps.provider, ctx.parts, marked, reference);
    const event = eventFromExecute(result, now(), marked);
    const applying = deps.apply({ reference, ...event }, marked);
    const reading = readingOf(result);
    // Told in the same turn as the answer's write, so a reading that only re-arms the alert
    // leaves with it in one socket write (the stores hold a turn's writes: redis-batch.ts). The
    // alert never holds up or undoes the order: it waits for the answer's write only for the
    // status it names, and its failure (a synchronous throw included) is logged.
    const tell = deps.onWalletReading;
    const recorded =
      reading && tell
        ? Promise.resolve()
            .then(() =>
              tell({ reference, status: statusAfter(applying, marked), at: now(), ...reading }),
            )
            .catch((err: unknown) =>
              log?.error({ err: String(err), reference }, "the wallet reading was not recorded"),
            )
        : undefined;
    const applied = await applying;
    // Made final meanwhile (the reconciler's "not found", a status query): logged like a webhook
    // (an opposite final answer is also recorded on the order and alerted: orders/state.ts).
    if (applied.outcome !== "changed") executeContradicts(log, applied.order, event);
    await recorded;
    return applied.order ?? marked;
  };
}

/** The order's status once the execute's answer is written (a failed write: handled by submit). */
function statusAfter(applying: ReturnType<Apply>, marked: Order): Promise<Order["status"]> {
  // A failed write is submit's own error, not the reading's: the alert still goes, naming the
  // status the store last held (the mark), so a low wallet is never left unsaid.
  return applying.then(
    (a) => (a.order ?? marked).status,
    () => marked.status,
  );
}
