import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EVENT_SOURCES,
  type HistoryEntry,
  isFinal,
  NOT_FOUND_NOTE,
  type Notification,
  ORDER_STATUSES,
  type Order,
  type OrderEvent,
  type OrderStatus,
  type WalletEffects,
} from "../../src/orders/model.ts";
import { bookingsOf, holdOf, settlementOf } from "../../src/orders/postings.ts";
import { MAX_FINAL_WORDS, MAX_HISTORY, transition } from "../../src/orders/state.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * Properties of the order state machine over a wide event generator (every source, every status,
 * unknown words, transaction ids, wallet figures, admin settlements, stuck flags, redeliveries and
 * events out of order), checked with invariants that do not restate the implementation: they are
 * what the money and the admins must see, whatever path the order took.
 *
 * The documented bounds (src/orders/transition-kit.ts): MAX_HISTORY entries, 20 more for counted
 * "not found" answers, 5 more still for the aggregator's contradiction of a final order.
 */
const NOT_FOUND_ROOM = 20;
const CONTRADICTION_ROOM = 5;
const HISTORY_BOUND = MAX_HISTORY + NOT_FOUND_ROOM + CONTRADICTION_ROOM;

const ADMINS = [7, 9];

// ------------------------------------------------------------------------------ generators

const walletArb: fc.Arbitrary<WalletEffects> = fc
  .record({
    debit: fc.constantFrom(9_500, 10_000, 10_250),
    // Answers carry the aggregator's figures; inferred ones are the state machine's own (a success
    // without figures), never an event's.
    source: fc.constantFrom<WalletEffects["source"]>("execute", undefined),
  })
  .map(({ debit, source }) => ({
    amountPaisa: 10_000,
    serviceChargePaisa: 0,
    instantDiscountPaisa: 0,
    debitAmountPaisa: debit,
    creditAvailablePaisa: 90_000,
    ...(source === undefined ? {} : { source }),
  }));

const finalStatus = fc.constantFrom<"success" | "failed">("success", "failed");

/** Events as the sources send them, final words weighted up so most orders become final. */
const plainEvent: fc.Arbitrary<OrderEvent> = fc
  .record({
    source: fc.constantFrom(...EVENT_SOURCES),
    status: fc.oneof(
      { weight: 2, arbitrary: fc.constant(null) },
      { weight: 3, arbitrary: fc.constantFrom<OrderStatus>(...ORDER_STATUSES) },
      { weight: 3, arbitrary: finalStatus },
    ),
    note: fc.option(fc.constantFrom("a", "b"), { nil: undefined }),
    transactionId: fc.option(fc.constantFrom("T1", "T2"), { nil: undefined }),
    wallet: fc.option(walletArb, { nil: undefined, freq: 3 }),
    providerMessage: fc.option(fc.constantFrom("ok", "no balance"), { nil: undefined }),
    floatShort: fc.option(fc.constant(true as const), { nil: undefined, freq: 4 }),
    expect: fc.option(fc.subarray([...ORDER_STATUSES], { minLength: 1 }), {
      nil: undefined,
      freq: 5,
    }),
    flag: fc.option(fc.constant({ adminChatIds: ADMINS }), { nil: undefined, freq: 6 }),
  })
  .map((r) => drop({ ...r, at: 0 }) as OrderEvent);

/** A word nobody understood (status null), as a webhook or a status answer carries it. */
const unknownWord: fc.Arbitrary<OrderEvent> = fc
  .record({
    source: fc.constantFrom(...EVENT_SOURCES),
    word: fc.constantFrom("refunded", "reversed", "on-hold", "???"),
    transactionId: fc.option(fc.constantFrom("T1", "T2"), { nil: undefined }),
  })
  .map(({ source, word, transactionId }) =>
    drop({ source, status: null, at: 0, unrecognised: word, transactionId }),
  );

/** An admin's settlement (settle.ts), either outcome, naming the admins to alert. */
const settlement: fc.Arbitrary<OrderEvent> = fc
  .record({ outcome: finalStatus, by: fc.constantFrom(...ADMINS) })
  .map(({ outcome, by }) => ({
    source: "admin",
    status: outcome,
    at: 0,
    note: `settled by admin ${by}: operator says so`,
    settle: { by, reason: "operator says so", aggregator: "pending", admins: ADMINS },
  }));

/** A counted "not found" answer of the reconciler (it has room past the cap). */
const notFound: fc.Arbitrary<OrderEvent> = fc.integer({ min: 1, max: 30 }).map((k) => ({
  source: "reconciler",
  status: null,
  at: 0,
  note: `${NOT_FOUND_NOTE} (answer ${k} of 3)`,
}));

const eventArb: fc.Arbitrary<OrderEvent> = fc.oneof(
  { weight: 6, arbitrary: plainEvent },
  { weight: 2, arbitrary: unknownWord },
  { weight: 1, arbitrary: settlement },
  { weight: 1, arbitrary: notFound },
);

/** One step: a new event (at a time that may go backwards), the last one again, or an earlier one. */
type Step =
  | { kind: "new"; event: OrderEvent; at: number }
  | { kind: "again" }
  | { kind: "replay"; pick: number };
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({ event: eventArb, at: fc.integer({ min: 2, max: 1_000 }) })
      .map((r) => ({ kind: "new" as const, ...r })),
  },
  { weight: 2, arbitrary: fc.constant({ kind: "again" as const }) },
  {
    weight: 2,
    arbitrary: fc.nat({ max: 1_000 }).map((pick) => ({ kind: "replay" as const, pick })),
  },
);

/**
 * The order to start from: prepaid (a hold) or staff (none), Nepal or India, a short or nearly
 * full history (`padding` filler entries; built in the property so a counterexample stays short).
 */
interface Start {
  prepaid: boolean;
  india: boolean;
  padding: number;
}
const startArb: fc.Arbitrary<Start> = fc.record({
  prepaid: fc.boolean(),
  india: fc.boolean(),
  padding: fc.constantFrom(
    0,
    0,
    0,
    MAX_HISTORY - 3,
    MAX_HISTORY,
    MAX_HISTORY + 18,
    HISTORY_BOUND - 6,
    HISTORY_BOUND,
  ),
});

function orderOf({ prepaid, india, padding }: Start): Order {
  {
    const filler: HistoryEntry[] = Array.from({ length: padding }, (_, i) => ({
      source: "system",
      status: null,
      at: 1,
      note: `filler ${i}`,
    }));
    return placedOrder({
      ...(india
        ? { region: "in", exchange: { rateE4: 16_000, totalPaisa: 16_160, feePaisa: 160 } }
        : {}),
      ...(prepaid
        ? {
            holdId: "order:1700000000001",
            price: { amountPaisa: 10_000, feePaisa: 100, discountPaisa: 0, totalPaisa: 10_100 },
          }
        : {}),
      history: [{ source: "system", status: "placed", at: 1 }, ...filler],
    });
  }
}

const scenarioArb = fc.record({
  start: startArb,
  steps: fc.array(stepArb, { minLength: 1, maxLength: 30 }),
});

/** The events a list of steps delivers, in order (redeliveries and replays resolved). */
function eventsOf(steps: Step[]): OrderEvent[] {
  const out: OrderEvent[] = [];
  for (const s of steps) {
    if (s.kind === "new") out.push({ ...s.event, at: s.at });
    else if (out.length > 0) {
      const e = s.kind === "again" ? out.at(-1) : out[s.pick % out.length];
      if (e) out.push(e);
    }
  }
  return out;
}

/** Without the undefined fields (the schema's optional fields are absent, not undefined). */
function drop<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

// ------------------------------------------------------------------------------ the walk

const isAlertOfContradiction = (n: Notification): boolean =>
  n.kind === "admin_alert" && (n.contradicted !== undefined || n.topic === "settle_contradicted");

/** A wallet replaced after the order was final: only the execute answer's own figures over inferred ones. */
function lateWalletAllowed(prev: Order, e: OrderEvent, next: Order): boolean {
  return (
    prev.status === "success" &&
    e.source === "execute" &&
    (prev.wallet === undefined || prev.wallet.source === "inferred") &&
    next.wallet !== undefined &&
    next.wallet.source !== "inferred" &&
    next.wallet === e.wallet
  );
}

interface Money {
  posts: number;
  voids: number;
  /** The float the books say the aggregator took for this order (float + corrections). */
  float: number;
  transferIds: string[];
}

function floatEffect(t: ReturnType<typeof bookingsOf>[number]): number {
  if (t.kind === "float_debit") return t.amountPaisa;
  if (t.kind === "adjustment")
    return t.credit === "merchant:float" ? t.amountPaisa : -t.amountPaisa;
  return 0;
}

/**
 * Applies the events one by one, checking at every step what must hold whatever the event, and
 * returns the money the steps derived and the alerts they produced.
 */
function walk(from: Start, events: OrderEvent[]) {
  const start = orderOf(from);
  let o = start;
  const money: Money = { posts: 0, voids: 0, float: 0, transferIds: [] };
  const alerts: Notification[] = [];
  let lateWallets = 0;
  const startLength = start.history.length;
  /** History entries a final order gained: words nobody understood (bounded), an agreement, a contradiction. */
  let addedWhileFinal = 0;
  for (const [i, e] of events.entries()) {
    const where = `event #${i} ${JSON.stringify(e)} on a ${o.status} order`;
    const t = transition(o, e, ADMINS);
    const next = t.order;

    // The money the postings derive from this step.
    const s = settlementOf(o, next);
    if (s === "post") money.posts++;
    if (s === "void") money.voids++;
    for (const b of bookingsOf(o, next)) {
      money.transferIds.push(b.id);
      money.float += floatEffect(b);
    }
    alerts.push(...t.notifications.filter(isAlertOfContradiction));

    if (isFinal(o.status)) {
      // Once final: the status, the hold and (but for the late wallet) the wallet stay.
      expect(next.status, where).toBe(o.status);
      expect(t.statusChanged, where).toBe(false);
      expect(holdOf(next), where).toEqual(holdOf(o));
      expect(next.holdId, where).toBe(o.holdId);
      if (next.wallet !== o.wallet) {
        expect(lateWalletAllowed(o, e, next), `${where}: the wallet changed`).toBe(true);
        lateWallets++;
      }
      addedWhileFinal += Math.max(0, next.history.length - o.history.length);
      expect(addedWhileFinal, `${where}: entries past the final words' bound`).toBeLessThanOrEqual(
        MAX_FINAL_WORDS + 2,
      );
      // The customer hears nothing more: only admins may be told.
      expect(
        t.notifications.filter((n) => n.kind === "status"),
        where,
      ).toEqual([]);
    }

    // History: never past the documented bounds (an order that started past them never grows).
    expect(next.history.length, where).toBeLessThanOrEqual(Math.max(startLength, HISTORY_BOUND));
    const grew = next.history.length > o.history.length;
    if (grew && o.history.length >= MAX_HISTORY) {
      const added = next.history.at(-1);
      const contradiction =
        next.contradicted !== o.contradicted ||
        next.settled?.contradictedAt !== o.settled?.contradictedAt;
      const room = contradiction
        ? HISTORY_BOUND
        : added?.note?.startsWith(NOT_FOUND_NOTE)
          ? MAX_HISTORY + NOT_FOUND_ROOM
          : MAX_HISTORY;
      expect(o.history.length, `${where}: an entry past the cap`).toBeLessThan(room);
    }

    // The same event again, right away, changes nothing and tells nobody.
    const again = transition(next, e, ADMINS);
    expect(again.order, `${where}: applied twice`).toEqual(next);
    expect(again.notifications, `${where}: applied twice`).toEqual([]);
    expect(again.changed, `${where}: applied twice reports a change (a store write)`).toBe(false);

    o = next;
  }
  return { order: o, money, alerts, lateWallets };
}

// ------------------------------------------------------------------------------ properties

const RUNS = 1_500;

describe("order state machine properties (wide events: every source, word, wallet, settlement, redelivery)", () => {
  it("step invariants hold: a final order keeps its status, hold and wallet (but the late wallet), the history stays bounded, a redelivery changes nothing", () => {
    fc.assert(
      fc.property(scenarioArb, ({ start, steps }) => {
        walk(start, eventsOf(steps));
      }),
      { numRuns: RUNS },
    );
  });

  it("the money is settled once: the hold posted xor voided as the final status says, the float booked once at the final figure", () => {
    fc.assert(
      fc.property(scenarioArb, ({ start, steps }) => {
        const { order, money, lateWallets } = walk(start, eventsOf(steps));
        const held = holdOf(order) !== null;
        expect(money.posts + money.voids).toBe(held && isFinal(order.status) ? 1 : 0);
        if (held && order.status === "success") expect(money.posts).toBe(1);
        if (held && order.status === "failed") expect(money.voids).toBe(1);
        // Each transfer once (ids derive from the reference: a repeat would be a double booking).
        expect(new Set(money.transferIds).size).toBe(money.transferIds.length);
        // What the books took from the float is the order's final figure, or nothing.
        const expected = order.status === "success" ? (order.wallet?.debitAmountPaisa ?? 0) : 0;
        expect(money.float).toBe(expected);
        expect(lateWallets).toBeLessThanOrEqual(1);
      }),
      { numRuns: RUNS },
    );
  });

  it("a contradiction alerts each admin at most once per order, however often it is redelivered", () => {
    fc.assert(
      fc.property(scenarioArb, ({ start, steps }) => {
        const { order, alerts } = walk(start, eventsOf(steps));
        const chats = alerts.map((n) => n.chatId);
        expect(new Set(chats).size).toBe(chats.length);
        // An alert says the opposite of the order's outcome, and the order keeps a trace of it.
        for (const n of alerts) {
          expect(n.status).toBe(order.status);
          if (n.kind === "admin_alert" && n.contradicted)
            expect(n.contradicted).not.toBe(order.status);
        }
        if (alerts.length > 0)
          expect(order.contradicted ?? order.settled?.contradictedAt).toBeDefined();
      }),
      { numRuns: RUNS },
    );
  });

  it("the generator reaches the branches it is for (a property over nothing cannot fail)", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(scenarioArb, ({ start, steps }) => {
        const { order, alerts, lateWallets } = walk(start, eventsOf(steps));
        if (order.contradicted) seen.add("contradicted");
        if (order.settled?.contradictedAt) seen.add("settled-contradicted");
        if (order.settled?.confirmedAt) seen.add("settled-confirmed");
        if (order.settled && order.status === "success") seen.add("settled-success");
        if (order.settled && order.status === "failed") seen.add("settled-failed");
        if (alerts.length > 0) seen.add("alerted");
        if (lateWallets > 0) seen.add("late-wallet");
        if (order.history.some((h) => h.note?.includes("not understood after the order was final")))
          seen.add("final-word-unread");
        if (order.history.length > MAX_HISTORY + NOT_FOUND_ROOM) seen.add("past-not-found-room");
        if (order.history.some((h) => h.note?.startsWith("transaction id mismatch")))
          seen.add("tx-mismatch");
      }),
      { numRuns: 1_000, seed: 42 },
    );
    expect([...seen].sort()).toEqual(
      [
        "alerted",
        "contradicted",
        "final-word-unread",
        "late-wallet",
        "past-not-found-room",
        "settled-confirmed",
        "settled-contradicted",
        "settled-failed",
        "settled-success",
        "tx-mismatch",
      ].sort(),
    );
  });
});
