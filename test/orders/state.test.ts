import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EVENT_SOURCES,
  isFinal,
  normalizeProviderStatus,
  type Order,
  type OrderEvent,
  type OrderStatus,
  STATUS_RANK,
} from "../../src/orders/model.ts";
import { MAX_HISTORY, MAX_UNRECOGNISED, transition } from "../../src/orders/state.ts";
import { placedOrder } from "../support/orders.ts";

const ev = (status: OrderStatus | null, over: Partial<OrderEvent> = {}): OrderEvent => ({
  source: "webhook",
  status,
  at: 10,
  ...over,
});

function run(order: Order, events: OrderEvent[], admins: number[] = []) {
  let o = order;
  const notified: string[] = [];
  for (const e of events) {
    const t = transition(o, e, admins);
    o = t.order;
    for (const n of t.notifications) notified.push(`${n.kind}:${n.status}:${n.chatId}`);
  }
  return { order: o, notified };
}

describe("transition", () => {
  it("moves forward through the states and notifies each user-visible one", () => {
    const { order, notified } = run(placedOrder(), [
      ev("submitting", { source: "system" }),
      ev("unknown", { source: "execute" }),
      ev("pending", { source: "status" }),
      ev("success", { source: "webhook", transactionId: "T1" }),
    ]);
    expect(order.status).toBe("success");
    expect(order.transactionId).toBe("T1");
    expect(notified).toEqual(["status:unknown:42", "status:pending:42", "status:success:42"]);
    expect(order.history.map((h) => h.status)).toEqual([
      "placed",
      "submitting",
      "unknown",
      "pending",
      "success",
    ]);
  });

  it("records queued -> pending without notifying: the receipt words both alike", () => {
    const { order, notified } = run(placedOrder(), [
      ev("submitting", { source: "system" }),
      ev("queued", { source: "execute", transactionId: "T1" }),
      ev("pending", { source: "webhook", transactionId: "T1" }),
      ev("pending", { source: "status" }),
      ev("success", { source: "webhook", transactionId: "T1" }),
    ]);
    expect(notified).toEqual(["status:queued:42", "status:success:42"]);
    expect(order.history.map((h) => h.status)).toEqual([
      "placed",
      "submitting",
      "queued",
      "pending",
      "pending",
      "success",
    ]);
    const t = transition(
      run(placedOrder(), [ev("queued", { source: "execute", transactionId: "T1" })]).order,
      ev("pending", { source: "webhook" }),
    );
    expect(t.statusChanged).toBe(true);
    expect(t.order.status).toBe("pending");
    expect(t.notifications).toEqual([]);
  });

  it("notifies pending when the receipt would change: from another state, or a first transaction id", () => {
    expect(run(placedOrder(), [ev("submitting"), ev("pending")]).notified).toEqual([
      "status:pending:42",
    ]);
    expect(run(placedOrder(), [ev("unknown"), ev("pending")]).notified).toEqual([
      "status:unknown:42",
      "status:pending:42",
    ]);
    expect(
      run(placedOrder(), [ev("queued"), ev("pending", { transactionId: "T2" })]).notified,
    ).toEqual(["status:queued:42", "status:pending:42"]);
  });

  it("never moves a final order, whatever arrives later", () => {
    const done = run(placedOrder(), [ev("failed", { source: "execute" })]).order;
    for (const late of [ev("pending"), ev("success"), ev("unknown"), ev(null, { note: "x" })]) {
      const t = transition(done, late);
      expect(t.changed).toBe(false);
      expect(t.order).toBe(done);
      expect(t.notifications).toEqual([]);
    }
  });

  it("a late 'unknown' never overwrites a state the provider told us", () => {
    const queued = run(placedOrder(), [ev("queued", { source: "execute" })]).order;
    const t = transition(queued, ev("unknown", { source: "execute", note: "late" }));
    expect(t.order.status).toBe("queued");
    expect(t.statusChanged).toBe(false);
    expect(t.notifications).toEqual([]);
  });

  it("records a non-moving event once, without notifying", () => {
    const pending = run(placedOrder(), [ev("pending", { source: "execute" })]).order;
    const t1 = transition(pending, ev("queued", { source: "webhook" }));
    expect(t1.changed).toBe(true);
    expect(t1.statusChanged).toBe(false);
    expect(t1.notifications).toEqual([]);
    const t2 = transition(t1.order, ev("queued", { source: "webhook", at: 99 }));
    expect(t2.changed).toBe(false);
  });

  it("does nothing when the expected state does not hold", () => {
    const submitting = run(placedOrder(), [ev("submitting", { source: "system" })]).order;
    const t = transition(submitting, ev("failed", { source: "reconciler", expect: ["placed"] }));
    expect(t.changed).toBe(false);
    expect(t.order.status).toBe("submitting");
  });

  it("keeps a trace of a transaction id mismatch but does not apply it", () => {
    const o = run(placedOrder(), [ev("pending", { source: "execute", transactionId: "T1" })]).order;
    const t = transition(o, ev("success", { transactionId: "FORGED" }));
    expect(t.order.status).toBe("pending");
    expect(t.notifications).toEqual([]);
    expect(t.order.history.at(-1)?.note).toMatch(/mismatch/);
    expect(transition(t.order, ev("success", { transactionId: "FORGED" })).changed).toBe(false);
  });

  it("flags once and alerts every admin once", () => {
    const o = run(placedOrder(), [ev("unknown", { source: "execute" })]).order;
    const flag = ev(null, {
      source: "reconciler",
      note: "not final after 61 min",
      flag: { adminChatIds: [7, 8] },
    });
    const t1 = transition(o, flag);
    expect(t1.order.flaggedAt).toBe(10);
    expect(t1.notifications.map((n) => [n.kind, n.chatId])).toEqual([
      ["admin_alert", 7],
      ["admin_alert", 8],
    ]);
    const t2 = transition(t1.order, { ...flag, note: "not final after 62 min", at: 20 });
    expect(t2.notifications).toEqual([]);
  });

  it("fills a missing transaction id and wallet from a late execute response", () => {
    const success = run(placedOrder(), [ev("success", { source: "webhook" })]).order;
    // Final orders do not change, even to add facts: the webhook's success is what the user saw.
    const t = transition(success, ev("queued", { source: "execute", transactionId: "T9" }));
    expect(t.changed).toBe(false);
    const pending = run(placedOrder(), [ev("pending", { source: "webhook" })]).order;
    const t2 = transition(pending, ev("queued", { source: "execute", transactionId: "T9" }));
    expect(t2.order.status).toBe("pending");
    expect(t2.order.transactionId).toBe("T9");
  });
});

describe("failure reason", () => {
  const accepted = () =>
    run(placedOrder(), [
      ev("submitting", { source: "system" }),
      ev("queued", {
        source: "execute",
        transactionId: "T1",
        providerMessage: "Recharge request accepted and queued",
      }),
    ]).order;

  it("is never the acceptance message of an order that later failed without words", () => {
    const o = accepted();
    expect(o.providerMessage).toBe("Recharge request accepted and queued");
    const failed = run(o, [ev("pending"), ev("failed", { source: "status" })]).order;
    expect(failed.status).toBe("failed");
    expect(failed.providerMessage).toBeUndefined();
    // Also straight from queued to failed.
    expect(transition(o, ev("failed", { source: "reconciler" })).order.providerMessage).toBe(
      undefined,
    );
  });

  it("is the failing event's own message when it has one", () => {
    const t = transition(accepted(), ev("failed", { providerMessage: "Invalid subscriber" }));
    expect(t.order.status).toBe("failed");
    expect(t.order.providerMessage).toBe("Invalid subscriber");
  });

  it("takes words of a late event only when it speaks of the current status", () => {
    const pending = run(placedOrder(), [ev("pending", { source: "webhook" })]).order;
    const late = transition(
      pending,
      ev("queued", { source: "execute", providerMessage: "queued" }),
    );
    expect(late.order.providerMessage).toBeUndefined();
    const same = transition(pending, ev("pending", { source: "status", providerMessage: "busy" }));
    expect(same.order.providerMessage).toBe("busy");
  });
});

describe("unrecognised status words", () => {
  it("go to a bounded list of their own, newest kept, never into the history", () => {
    const o = run(placedOrder(), [ev("pending")]).order;
    const words = Array.from({ length: MAX_UNRECOGNISED + 30 }, (_, i) => `junk-${i}`);
    const flooded = run(
      o,
      words.map((w, i) => ev(null, { unrecognised: w, at: 100 + i })),
    ).order;
    expect(flooded.history).toEqual(o.history);
    expect(flooded.status).toBe("pending");
    expect(flooded.unrecognised).toHaveLength(MAX_UNRECOGNISED);
    expect(flooded.unrecognised?.map((u) => u.word)).toEqual(words.slice(-MAX_UNRECOGNISED));
    // The same word again refreshes its entry instead of taking another place.
    const again = transition(flooded, ev(null, { unrecognised: "junk-40", at: 999 })).order;
    expect(again.unrecognised).toHaveLength(MAX_UNRECOGNISED);
    expect(again.unrecognised?.at(-1)).toEqual({ source: "webhook", word: "junk-40", at: 999 });
    expect(transition(again, ev(null, { unrecognised: "junk-40", at: 999 })).changed).toBe(false);
    // A real event after the flood is still recorded and moves the order.
    const done = transition(again, ev("success", { source: "status" })).order;
    expect(done.status).toBe("success");
    expect(done.history.at(-1)).toMatchObject({ source: "status", status: "success" });
  });
});

describe("normalizeProviderStatus", () => {
  it("maps the provider's words and refuses unknown ones", () => {
    expect(normalizeProviderStatus("Success")).toBe("success");
    expect(normalizeProviderStatus(" FAILED ")).toBe("failed");
    expect(normalizeProviderStatus("processing")).toBe("pending");
    expect(normalizeProviderStatus("queued")).toBe("queued");
    expect(normalizeProviderStatus("refund-maybe")).toBeNull();
  });
});

// ------------------------------------------------------------------------------- properties

const nonFinal = fc.constantFrom<OrderStatus>("submitting", "unknown", "queued", "pending");
const eventArb = (statusArb: fc.Arbitrary<OrderStatus | null>) =>
  fc.record({
    source: fc.constantFrom(...EVENT_SOURCES),
    status: statusArb,
    at: fc.integer({ min: 2, max: 1_000_000 }),
    note: fc.option(fc.constantFrom("a", "b"), { nil: undefined }),
    transactionId: fc.option(fc.constant("T1"), { nil: undefined }),
  }) as fc.Arbitrary<OrderEvent>;

interface Scenario {
  final: OrderStatus | undefined;
  events: OrderEvent[];
}

/** Event lists whose final claims agree (one outcome per order, as in reality). */
const consistentEvents: fc.Arbitrary<Scenario> = fc
  .tuple(
    fc.option(fc.constantFrom<OrderStatus>("success", "failed"), { nil: undefined }),
    fc.array(eventArb(fc.option(nonFinal, { nil: null })), { maxLength: 12 }),
    fc.integer({ min: 0, max: 3 }),
  )
  .chain(
    ([final, events, finals]): fc.Arbitrary<Scenario> =>
      final === undefined
        ? fc.constant({ final, events })
        : fc
            .array(eventArb(fc.constant(final)), { minLength: Math.max(1, finals), maxLength: 3 })
            .map((fs) => ({ final, events: [...events, ...fs] })),
  );

describe("transition properties", () => {
  it("any permutation of the same events ends in the same status", () => {
    fc.assert(
      fc.property(
        consistentEvents.chain(({ final, events }) =>
          fc.tuple(
            fc.constant(final),
            fc.constant(events),
            fc.shuffledSubarray(events, {
              minLength: events.length,
              maxLength: events.length,
            }),
          ),
        ),
        ([final, events, shuffled]) => {
          const a = run(placedOrder(), events).order;
          const b = run(placedOrder(), shuffled).order;
          expect(b.status).toBe(a.status);
          const expected =
            final ??
            events.reduce<OrderStatus>(
              (best, e) =>
                e.status !== null && STATUS_RANK[e.status] > STATUS_RANK[best] ? e.status : best,
              "placed",
            );
          expect(a.status).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("applying every event twice equals applying it once, notifications included", () => {
    fc.assert(
      fc.property(consistentEvents, ({ events }) => {
        const once = run(placedOrder(), events);
        const twice = run(
          placedOrder(),
          events.flatMap((e) => [e, e]),
        );
        expect(twice.order).toEqual(once.order);
        expect(twice.notified).toEqual(once.notified);
      }),
      { numRuns: 500 },
    );
  });

  it("each (order, status) is notified at most once, and only on a move", () => {
    fc.assert(
      fc.property(consistentEvents, fc.boolean(), ({ events }, replay) => {
        const list = replay ? [...events, ...events] : events;
        const { notified } = run(placedOrder(), list);
        expect(new Set(notified).size).toBe(notified.length);
        expect(notified.some((n) => n.includes(":submitting:"))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("a final order never changes status or money; the aggregator's own opposite word is recorded and alerted once", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<OrderStatus>("success", "failed"),
        fc.array(
          eventArb(
            fc.option(
              fc.constantFrom(...(["unknown", "queued", "pending", "success", "failed"] as const)),
              { nil: null },
            ),
          ),
          {
            maxLength: 10,
          },
        ),
        (final, later) => {
          const done = run(placedOrder(), [ev(final, { source: "execute" })]).order;
          expect(isFinal(done.status)).toBe(true);
          const after = run(done, later, [9]);
          // Its answers (never a webhook's claim alone) saying the opposite final outcome.
          const opposite = later.filter(
            (e) =>
              ["status", "reconciler", "execute"].includes(e.source) &&
              e.status !== null &&
              isFinal(e.status) &&
              e.status !== final,
          );
          const first = opposite[0];
          if (!first) {
            expect(after.order).toBe(done);
            expect(after.notified).toEqual([]);
            return;
          }
          const { history, contradicted, updatedAt, ...rest } = after.order;
          const { history: h0, updatedAt: u0, ...rest0 } = done;
          expect(rest).toEqual(rest0);
          expect(contradicted).toEqual({ at: first.at, said: first.status, source: first.source });
          expect(history).toEqual([...h0, expect.objectContaining({ status: null })]);
          expect(after.notified).toEqual([`admin_alert:${final}:9`]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("a final order and the execute answer's late wallet figures", () => {
  const wallet = {
    amountPaisa: 10_000,
    serviceChargePaisa: 0,
    instantDiscountPaisa: 0,
    debitAmountPaisa: 10_000,
    creditAvailablePaisa: 90_000,
  };
  it("a success still records them once, with no status change and no notification", () => {
    const done = run(placedOrder(), [ev("success", { transactionId: "T1" })]).order;
    const t = transition(done, ev("queued", { source: "execute", transactionId: "T1", wallet }));
    expect(t).toMatchObject({ changed: true, statusChanged: false, notifications: [] });
    expect(t.order.status).toBe("success");
    expect(t.order.wallet).toEqual(wallet);
    const again = transition(t.order, ev("queued", { source: "execute", wallet }));
    expect(again.changed).toBe(false);
  });
  it("not from another source, another transaction, or onto a failed order", () => {
    const done = run(placedOrder(), [ev("success", { transactionId: "T1" })]).order;
    expect(transition(done, ev(null, { wallet })).changed).toBe(false);
    const other = ev("queued", { source: "execute", transactionId: "T2", wallet });
    expect(transition(done, other).changed).toBe(false);
    const failed = run(placedOrder(), [ev("failed")]).order;
    expect(transition(failed, ev("queued", { source: "execute", wallet })).changed).toBe(false);
  });
});

describe("defects the wide property found (test/orders/state.property.test.ts)", () => {
  const full = (status: OrderStatus) =>
    placedOrder({
      status,
      history: Array.from({ length: MAX_HISTORY }, (_, i) => ({
        source: "system" as const,
        status: null,
        at: 1,
        note: `filler ${i}`,
      })),
    });
  it("a redelivered unknown word on a final order with a full history claims no change the second time", () => {
    // Not a reversal word: on a success that is the aggregator's "failed" (orders/reversal.ts).
    const word = ev(null, { source: "status", unrecognised: "on-hold", at: 5 });
    const first = transition(full("success"), word);
    expect(first.order.unrecognised).toHaveLength(1);
    const again = transition(first.order, word);
    expect(again.changed).toBe(false);
  });
  it("a redelivered transaction-id mismatch on a full history claims no change (no store write)", () => {
    const order = { ...full("pending"), transactionId: "T1" };
    const other = ev("success", { transactionId: "T2", at: 5 });
    expect(transition(order, other).changed).toBe(false);
  });
  const wallet = {
    amountPaisa: 10_000,
    serviceChargePaisa: 0,
    instantDiscountPaisa: 0,
    debitAmountPaisa: 9_500,
    creditAvailablePaisa: 90_000,
    source: "execute" as const,
  };
  it("a late execute answer calling a success failed is the contradiction, alerted at once; its figures are not booked", () => {
    const done = run(placedOrder(), [ev("success", { transactionId: "T1" })]).order;
    expect(done.wallet?.source).toBe("inferred");
    const answer = ev("failed", { source: "execute", transactionId: "T1", wallet, at: 20 });
    const t = transition(done, answer, [9]);
    expect(t.order.status).toBe("success");
    expect(t.order.wallet).toEqual(done.wallet);
    expect(t.order.contradicted).toEqual({ at: 20, said: "failed", source: "execute" });
    expect(t.notifications).toMatchObject([
      { kind: "admin_alert", chatId: 9, contradicted: "failed" },
    ]);
    expect(transition(t.order, answer, [9]).changed).toBe(false);
  });
  it("a late execute answer agreeing with a settled success records its figures and the agreement in one step", () => {
    const settle = { by: 9, reason: "operator says so", aggregator: "pending", admins: [9] };
    const done = run(placedOrder(), [ev("success", { source: "admin", settle })]).order;
    const answer = ev("success", { source: "execute", wallet, at: 20 });
    const t = transition(done, answer, [9]);
    expect(t.order.wallet).toEqual(wallet);
    expect(t.order.settled?.confirmedAt).toBe(20);
    expect(transition(t.order, answer, [9]).changed).toBe(false);
  });
});
