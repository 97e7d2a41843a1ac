import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import {
  account,
  createMemoryLedger,
  createRedisLedger,
  type LedgerStore,
} from "../../src/ledger/index.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import {
  chargedPaisa,
  holdIdOf,
  isFinal,
  type Order,
  type OrderStatus,
  type WalletEffects,
} from "../../src/orders/model.ts";
import { INFERRED_REASON } from "../../src/orders/postings.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { transition } from "../../src/orders/state.ts";
import { HoldRefusedError, type OrderStore } from "../../src/orders/store.ts";
import { nprCharge } from "../../src/pricing/index.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { placedOrder, testRedis } from "../support/orders.ts";

/**
 * The order store and the ledger together (issue 15): an order with a hold id takes its hold in
 * the create step (or nothing is written), and its final transition posts or voids it, once.
 * Run on both adapters; `second` is another process's handle on the same data.
 */
interface Harness {
  store: OrderStore;
  second(): OrderStore;
  ledger: LedgerStore;
  close(): Promise<void>;
}

function memoryHarness(): Harness {
  const ledger = createMemoryLedger();
  const store = createMemoryOrderStore({ ledger });
  return { store, second: () => store, ledger, close: async () => {} };
}

function redisHarness(): Harness {
  const t = testRedis("ledger-wiring");
  return {
    store: createRedisOrderStore({ redis: t.redis, prefix: t.prefix }),
    second: () => createRedisOrderStore({ redis: t.connect(), prefix: t.prefix }),
    ledger: createRedisLedger({ redis: t.redis, prefix: t.prefix }),
    close: () => t.cleanup(),
  };
}

const adapters: Array<[string, () => Harness]> = [
  ["memory", memoryHarness],
  ["redis", redisHarness],
];

/**
 * A prepaid India order of the same figures in ₹, paid from the Nepal-rupee balance at 1.6: its
 * hold and fee booking are the converted figures (`exchange`).
 */
function prepaidIndia(reference: string, userId: number, totalPaisa = 10_300): Order {
  const o = prepaid(reference, userId, totalPaisa);
  return {
    ...o,
    region: "in",
    category: "india",
    operatorId: 202,
    operatorName: "Airtel Prepaid",
    connectionNo: "9810012345",
    details: { circleId: "5" },
    exchange: nprCharge(o.price!, 16_000),
  } as Order;
}

/** A prepaid order: face 100.00, fee 5.00, discount 2.00, total 103.00 unless told. */
function prepaid(reference: string, userId: number, totalPaisa = 10_300): Order {
  const fee = 500;
  const discount = 200;
  const amount = totalPaisa - fee + discount;
  return placedOrder({
    reference,
    idempotencyKey: `idem-${reference}`,
    userId,
    chatId: userId,
    amountPaisa: amount,
    price: { amountPaisa: amount, feePaisa: fee, discountPaisa: discount, totalPaisa },
    holdId: holdIdOf(reference),
  });
}

let creditSeq = 0;
async function credit(ledger: LedgerStore, userId: number, paisa: number) {
  const r = await ledger.transfer({
    id: `credit-${++creditSeq}-${Date.now()}`,
    debit: account.merchant.funding,
    credit: account.customer(userId),
    amountPaisa: paisa,
    kind: "credit",
  });
  expect(r.ok).toBe(true);
}

/** The execute response's wallet figures: face 100.00, charge 3.00, discount 1.00, commission 2.50. */
const WALLET: WalletEffects = {
  amountPaisa: 10_000,
  serviceChargePaisa: 300,
  instantDiscountPaisa: 100,
  debitAmountPaisa: 10_200,
  creditAvailablePaisa: 500_000,
  commissionPaisa: 250,
};

/** Applies a provider-like event through the store's compare-and-set, as orders.apply does. */
function event(
  store: OrderStore,
  reference: string,
  status: OrderStatus | null,
  wallet?: WalletEffects,
  source: "webhook" | "execute" = "webhook",
) {
  return store.update(reference, (cur) => {
    const t = transition(cur, {
      source,
      status,
      at: Date.now(),
      ...(wallet ? { wallet } : {}),
    });
    return t.changed ? { order: t.order, notifications: t.notifications } : null;
  });
}

async function entriesFor(ledger: LedgerStore, holdId: string) {
  const all = (await ledger.journal()).entries;
  return {
    holds: all.filter((e) => e.kind === "hold" && e.id === holdId).length,
    posts: all.filter((e) => e.kind === "post" && e.pendingId === holdId).length,
    voids: all.filter((e) => e.kind === "void" && e.pendingId === holdId).length,
  };
}

describe.each(adapters)("order store with the ledger: %s", (_name, makeHarness) => {
  let h: Harness;
  afterEach(async () => {
    await h?.close();
  });

  it("refuses an order the balance does not cover and writes nothing: no order, no hold", async () => {
    h = makeHarness();
    await credit(h.ledger, 501, 5_000);
    const o = prepaid("1000000000001", 501);
    const err = await h.store.create(o).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HoldRefusedError);
    expect((err as HoldRefusedError).refusal).toMatchObject({
      code: "insufficient_funds",
      availablePaisa: 5_000,
      amountPaisa: 10_300,
      shortfallPaisa: 5_300,
    });
    expect(await h.store.get(o.reference)).toBeNull();
    expect(await h.store.getByIdempotencyKey(o.idempotencyKey)).toBeNull();
    expect(await h.store.listByUser(501, 10)).toEqual([]);
    expect(await h.ledger.pendingOf(o.holdId!)).toBeNull();
    expect(await h.ledger.balance(account.customer(501))).toMatchObject({
      availablePaisa: 5_000,
      heldPaisa: 0,
    });
    // The refusal left the reference free: the same order is accepted once the money is there.
    await credit(h.ledger, 501, 5_300);
    expect((await h.store.create(o)).created).toBe(true);
    await expectBooksBalanced(h.ledger);
  });

  it("holds the total with the order; a repeated create holds nothing more", async () => {
    h = makeHarness();
    await credit(h.ledger, 502, 20_000);
    const o = prepaid("1000000000002", 502);
    expect((await h.store.create(o)).created).toBe(true);
    expect((await h.store.create(o)).created).toBe(false);
    expect(await h.ledger.balance(account.customer(502))).toMatchObject({
      postedPaisa: 20_000,
      heldPaisa: 10_300,
      availablePaisa: 9_700,
    });
    expect(await h.ledger.pendingOf(o.holdId!)).toMatchObject({
      state: "pending",
      hold: { amountPaisa: 10_300, debit: "customer:502", credit: "merchant:sales" },
    });
    expect(await entriesFor(h.ledger, o.holdId!)).toEqual({ holds: 1, posts: 0, voids: 0 });
    await expectBooksBalanced(h.ledger);
  });

  it("records the customer's available balance right after the hold and after the settlement", async () => {
    h = makeHarness();
    await credit(h.ledger, 509, 100_000);
    const a = prepaid("1000000000091", 509);
    const b = prepaid("1000000000092", 509, 20_300);
    const c = prepaid("1000000000093", 509, 5_300);
    const stored = async (ref: string) => (await h.store.get(ref))?.balanceAfterPaisa;
    // Right after each hold: what the customer could spend then (every hold so far taken out).
    expect((await h.store.create(a)).order.balanceAfterPaisa).toBe(89_700);
    expect((await h.store.create(b)).order.balanceAfterPaisa).toBe(69_400);
    expect(await stored(a.reference)).toBe(89_700);
    // Steps that move no money keep the figure; a repeated create answers the stored one.
    expect((await event(h.store, a.reference, "pending"))?.order.balanceAfterPaisa).toBe(89_700);
    expect((await h.store.create(a)).order.balanceAfterPaisa).toBe(89_700);
    // a succeeds while b is still held: a's balance after takes b's hold out.
    expect((await event(h.store, a.reference, "success"))?.order.balanceAfterPaisa).toBe(69_400);
    await credit(h.ledger, 509, 1_000);
    // b fails: its hold comes back (and the cash-in that came before it counts).
    expect((await event(h.second(), b.reference, "failed"))?.order.balanceAfterPaisa).toBe(90_700);
    await h.store.create(c);
    await credit(h.ledger, 509, 2_000);
    // Later movements and later orders never change a settled order's figure.
    expect(await stored(a.reference)).toBe(69_400);
    expect(await stored(b.reference)).toBe(90_700);
    expect(await stored(c.reference)).toBe(85_400);
    expect((await event(h.store, a.reference, "failed"))?.updated).toBe(false);
    expect(await stored(a.reference)).toBe(69_400);
    await expectBooksBalanced(h.ledger);
  });

  it("numbers a prepaid order as it holds it: the hold's id and reference are the order's", async () => {
    h = makeHarness();
    await credit(h.ledger, 511, 20_000);
    const o = prepaid("1", 511);
    const a = await h.store.create(o, { numbered: true });
    const ref = a.order.reference;
    expect(ref).not.toBe("1");
    expect(a.order.holdId).toBe(`order:${ref}`);
    expect(await h.store.get(ref)).toMatchObject({ reference: ref, holdId: `order:${ref}` });
    expect(await h.ledger.pendingOf(`order:${ref}`)).toMatchObject({
      state: "pending",
      hold: { amountPaisa: 10_300, debit: "customer:511", reference: ref },
    });
    // The same hold as an order created with that reference would take: a repeat is a duplicate.
    const same = await h.ledger.hold({
      id: `order:${ref}`,
      debit: account.customer(511),
      credit: account.merchant.sales,
      amountPaisa: 10_300,
      reference: ref,
    });
    expect(same).toMatchObject({ ok: true, duplicate: true });
    expect((await h.second().create(o, { numbered: true })).order.reference).toBe(ref);
    const done = await event(h.store, ref, "success");
    expect(done?.settlement).toMatchObject({ ok: true, duplicate: false, entry: { kind: "post" } });
    expect(await entriesFor(h.ledger, `order:${ref}`)).toEqual({ holds: 1, posts: 1, voids: 0 });
    expect(await h.ledger.balance(account.customer(511))).toMatchObject({
      postedPaisa: 9_700,
      heldPaisa: 0,
    });
    await expectBooksBalanced(h.ledger);
  });

  it("success posts the hold once; repeated and contrary final events change nothing", async () => {
    h = makeHarness();
    await credit(h.ledger, 503, 20_000);
    const o = prepaid("1000000000003", 503);
    await h.store.create(o);
    const done = await event(h.store, o.reference, "success");
    expect(done?.settlement).toMatchObject({ ok: true, duplicate: false, entry: { kind: "post" } });
    for (const s of ["success", "failed", "unknown"] as const) {
      expect((await event(h.second(), o.reference, s))?.updated).toBe(false);
    }
    expect((await h.ledger.pendingOf(o.holdId!))?.state).toBe("posted");
    expect(await entriesFor(h.ledger, o.holdId!)).toEqual({ holds: 1, posts: 1, voids: 0 });
    expect(await h.ledger.balance(account.customer(503))).toMatchObject({
      postedPaisa: 9_700,
      heldPaisa: 0,
      availablePaisa: 9_700,
    });
    // No answer carried the aggregator's figures: the debit is inferred from the face amount
    // (100.00) and booked with the fee in the same step (issue 25).
    expect((await h.ledger.balance(account.merchant.sales)).postedPaisa).toBe(
      10_300 - 10_000 - 500,
    );
    expect((await h.store.get(o.reference))?.wallet).toMatchObject({
      debitAmountPaisa: 10_000,
      source: "inferred",
    });
    await expectBooksBalanced(h.ledger);
  });

  it("failure voids the hold once; repeated and contrary final events change nothing", async () => {
    h = makeHarness();
    await credit(h.ledger, 504, 20_000);
    const o = prepaid("1000000000004", 504);
    await h.store.create(o);
    const failed = await event(h.store, o.reference, "failed");
    expect(failed?.settlement).toMatchObject({ ok: true, entry: { kind: "void" } });
    for (const s of ["failed", "success"] as const) {
      expect((await event(h.second(), o.reference, s))?.updated).toBe(false);
    }
    expect((await h.ledger.pendingOf(o.holdId!))?.state).toBe("voided");
    expect(await entriesFor(h.ledger, o.holdId!)).toEqual({ holds: 1, posts: 0, voids: 1 });
    expect(await h.ledger.balance(account.customer(504))).toMatchObject({
      postedPaisa: 20_000,
      heldPaisa: 0,
      availablePaisa: 20_000,
    });
    await expectBooksBalanced(h.ledger);
  });

  it("an unknown outcome stays held until the order is decided", async () => {
    h = makeHarness();
    await credit(h.ledger, 505, 10_300);
    const o = prepaid("1000000000005", 505);
    await h.store.create(o);
    for (const s of ["submitting", "unknown", "pending"] as const) {
      const r = await event(h.store, o.reference, s);
      expect(r?.settlement).toBeUndefined();
      expect((await h.ledger.pendingOf(o.holdId!))?.state).toBe("pending");
    }
    expect((await h.ledger.balance(account.customer(505))).availablePaisa).toBe(0);
    await event(h.store, o.reference, "success");
    expect(await entriesFor(h.ledger, o.holdId!)).toEqual({ holds: 1, posts: 1, voids: 0 });
    await expectBooksBalanced(h.ledger);
  });

  it("two orders at once from a balance that covers one: exactly one is created", async () => {
    h = makeHarness();
    await credit(h.ledger, 506, 15_000);
    const a = prepaid("1000000000006", 506);
    const b = prepaid("1000000000007", 506);
    const results = await Promise.allSettled([h.store.create(a), h.second().create(b)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(HoldRefusedError);
    expect(await h.store.listByUser(506, 10)).toHaveLength(1);
    expect((await h.ledger.balance(account.customer(506))).heldPaisa).toBe(10_300);
    await expectBooksBalanced(h.ledger);
  });

  it("an open-mode success without the aggregator's figures books the inferred debit from funding", async () => {
    h = makeHarness();
    const o = placedOrder({ reference: "1000000000008", idempotencyKey: "idem-open" });
    await h.store.create(o);
    const done = await event(h.store, o.reference, "success");
    expect(done?.bookings).toMatchObject([
      {
        ok: true,
        entry: {
          id: "order:1000000000008:float",
          kind: "float_debit",
          debit: "merchant:funding",
          credit: "merchant:float",
          amountPaisa: 10_000,
          reason: INFERRED_REASON,
        },
      },
    ]);
    expect((await event(h.second(), o.reference, "success"))?.updated).toBe(false);
    expect((await h.ledger.balance(account.merchant.float)).postedPaisa).toBe(10_000);
    await expectBooksBalanced(h.ledger);
  });

  it("success books the float debit from sales and the fee into fee income, once", async () => {
    h = makeHarness();
    await credit(h.ledger, 510, 20_000);
    const o = prepaid("1000000000010", 510);
    await h.store.create(o);
    expect(
      (await event(h.store, o.reference, "queued", WALLET, "execute"))?.bookings,
    ).toBeUndefined();
    const done = await event(h.store, o.reference, "success");
    expect(done?.bookings).toMatchObject([
      {
        ok: true,
        entry: {
          kind: "float_debit",
          debit: "merchant:sales",
          credit: "merchant:float",
          amountPaisa: 10_200,
        },
      },
      {
        ok: true,
        entry: { kind: "fee", debit: "merchant:sales", credit: "merchant:fees", amountPaisa: 500 },
      },
    ]);
    for (const s of ["success", "failed"] as const) await event(h.second(), o.reference, s, WALLET);
    const all = (await h.ledger.journal()).entries.filter((e) => e.reference === o.reference);
    expect(all.map((e) => e.kind)).toEqual(["hold", "post", "float_debit", "fee"]);
    // Paid 103.00; the aggregator took 102.00; 5.00 fee income: sales keeps 103 - 102 - 5.
    expect((await h.ledger.balance(account.merchant.sales)).postedPaisa).toBe(
      10_300 - 10_200 - 500,
    );
    expect((await h.ledger.balance(account.merchant.fees)).postedPaisa).toBe(500);
    expect((await h.ledger.balance(account.merchant.float)).postedPaisa).toBe(10_200);
    // Commission is on the order, not in the books, until the aggregator's balance shows it.
    expect((await h.ledger.balance(account.merchant.commission)).postedPaisa).toBe(0);
    await expectBooksBalanced(h.ledger);
  });

  it("a failed order books no float debit and no fee", async () => {
    h = makeHarness();
    await credit(h.ledger, 511, 20_000);
    const o = prepaid("1000000000011", 511);
    await h.store.create(o);
    await event(h.store, o.reference, "queued", WALLET, "execute");
    expect((await event(h.store, o.reference, "failed"))?.bookings).toBeUndefined();
    const kinds = (await h.ledger.journal()).entries.filter((e) => e.reference === o.reference);
    expect(kinds.map((e) => e.kind)).toEqual(["hold", "void"]);
    await expectBooksBalanced(h.ledger);
  });

  it("wallet figures arriving after the success (late execute answer) book then, once", async () => {
    h = makeHarness();
    await credit(h.ledger, 512, 20_000);
    const o = prepaid("1000000000012", 512);
    await h.store.create(o);
    // The success books the inferred debit (the face amount, 100.00) and the fee at once.
    const done = await event(h.store, o.reference, "success");
    expect(done?.bookings?.map((b) => b.ok && [b.entry.kind, b.entry.amountPaisa])).toEqual([
      ["float_debit", 10_000],
      ["fee", 500],
    ]);
    // The aggregator's own figure (102.00) replaces it: the difference is booked once.
    const late = await event(h.store, o.reference, "queued", WALLET, "execute");
    expect(late?.bookings).toMatchObject([
      {
        ok: true,
        entry: {
          id: `order:${o.reference}:float-fix`,
          kind: "adjustment",
          debit: "merchant:sales",
          credit: "merchant:float",
          amountPaisa: 200,
        },
      },
    ]);
    expect(late?.order.wallet).toEqual(WALLET);
    expect((await event(h.second(), o.reference, "queued", WALLET, "execute"))?.updated).toBe(
      false,
    );
    expect((await h.ledger.balance(account.merchant.float)).postedPaisa).toBe(10_200);
    await expectBooksBalanced(h.ledger);
  });

  it("an India order holds, captures and books its fee in Nepal rupees (the converted figures)", async () => {
    h = makeHarness();
    await credit(h.ledger, 513, 20_000);
    const o = prepaidIndia("1000000000014", 513);
    expect(o.exchange).toEqual({ rateE4: 16_000, totalPaisa: 16_480, feePaisa: 800 });
    await h.store.create(o);
    expect((await h.ledger.pendingOf(o.holdId!))?.hold.amountPaisa).toBe(16_480);
    expect((await h.ledger.balance(account.customer(513))).availablePaisa).toBe(3_520);
    await event(h.store, o.reference, "queued", WALLET, "execute");
    const done = await event(h.store, o.reference, "success");
    expect(done?.bookings?.map((b) => b.ok && [b.entry.kind, b.entry.amountPaisa])).toEqual([
      ["float_debit", WALLET.debitAmountPaisa],
      ["fee", 800],
    ]);
    expect((await h.ledger.balance(account.customer(513))).postedPaisa).toBe(3_520);
    await expectBooksBalanced(h.ledger);

    // Failed: the converted total comes back whole.
    const f = prepaidIndia("1000000000015", 513, 2_000);
    await h.store.create(f);
    expect((await h.ledger.balance(account.customer(513))).availablePaisa).toBe(3_520 - 3_200);
    await event(h.store, f.reference, "failed");
    expect((await h.ledger.balance(account.customer(513))).availablePaisa).toBe(3_520);
    await expectBooksBalanced(h.ledger);
  });

  it("open mode: the float debit is paid from the merchant's own money (funding), no fee", async () => {
    h = makeHarness();
    const o = placedOrder({
      reference: "1000000000013",
      idempotencyKey: "idem-open-2",
      price: { amountPaisa: 10_000, feePaisa: 500, discountPaisa: 0, totalPaisa: 10_500 },
    });
    await h.store.create(o);
    await event(h.store, o.reference, "queued", WALLET, "execute");
    const done = await event(h.store, o.reference, "success");
    expect(done?.bookings).toMatchObject([
      {
        ok: true,
        entry: {
          kind: "float_debit",
          debit: "merchant:funding",
          credit: "merchant:float",
          amountPaisa: 10_200,
        },
      },
    ]);
    expect(await h.ledger.accounts()).toEqual(["merchant:float", "merchant:funding"]);
    await expectBooksBalanced(h.ledger);
  });
});

/**
 * Random interleavings of credits, places, outcomes (success, failure, unknown then decided) and
 * repeated events, over a few customers and two handles on the same store. After every run: the
 * books balance (sum zero, stored = journal, nobody below zero), every final order has exactly one
 * post (success) or one void (failed), every open one is still held, and a refused place left
 * neither an order nor a hold.
 */
type Cmd =
  | { c: "credit"; user: number; paisa: number }
  | { c: "place"; user: number; paisa: number; india: boolean }
  | { c: "event"; order: number; status: OrderStatus; other: boolean; wallet: boolean };

const users = [601, 602, 603];
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({
    c: fc.constant("credit" as const),
    user: fc.constantFrom(...users),
    paisa: fc.integer({ min: 1, max: 30_000 }),
  }),
  fc.record({
    c: fc.constant("place" as const),
    user: fc.constantFrom(...users),
    paisa: fc.integer({ min: 301, max: 20_000 }),
    india: fc.boolean(),
  }),
  fc.record({
    c: fc.constant("event" as const),
    order: fc.nat(20),
    status: fc.constantFrom<OrderStatus>("success", "failed", "unknown", "pending", "submitting"),
    other: fc.boolean(),
    wallet: fc.boolean(),
  }),
);

describe.each(adapters)("order store with the ledger, property: %s", (name, makeHarness) => {
  it("keeps the books balanced and settles every final order's hold exactly once", async () => {
    let refSeq = 2_000_000_000_000;
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { minLength: 1, maxLength: 40 }), async (cmds) => {
        const h = makeHarness();
        const other = h.second();
        try {
          const placed: Order[] = [];
          const refused: Order[] = [];
          for (const cmd of cmds) {
            if (cmd.c === "credit") await credit(h.ledger, cmd.user, cmd.paisa);
            else if (cmd.c === "place") {
              const o = (cmd.india ? prepaidIndia : prepaid)(String(++refSeq), cmd.user, cmd.paisa);
              const r = await h.store.create(o).catch((e: unknown) => e);
              if (r instanceof HoldRefusedError) refused.push(o);
              else placed.push(o);
            } else if (placed.length > 0) {
              const o = placed[cmd.order % placed.length]!;
              // Several events at once from two processes, as webhook, status and reconciler race.
              // The wallet figures come with the execute answer, before or after the final word.
              const w = cmd.wallet ? WALLET : undefined;
              const src = cmd.wallet ? "execute" : "webhook";
              await Promise.all([
                event(h.store, o.reference, cmd.status, w, src),
                ...(cmd.other ? [event(other, o.reference, cmd.status, w, src)] : []),
              ]);
            }
          }
          await expectBooksBalanced(h.ledger);
          for (const o of placed) {
            const stored = (await h.store.get(o.reference))!;
            const n = await entriesFor(h.ledger, o.holdId!);
            const pending = await h.ledger.pendingOf(o.holdId!);
            const state = pending?.state;
            // What the balance pays: the price, or an India order's converted total.
            expect(pending?.hold.amountPaisa).toBe(chargedPaisa(o));
            // The float debit and the fee: exactly once for a success with its figures, else none.
            const booked = (await h.ledger.journal()).entries.filter(
              (e) => e.reference === o.reference && (e.kind === "float_debit" || e.kind === "fee"),
            );
            const books = stored.status === "success" && stored.wallet !== undefined;
            expect(booked.map((e) => e.id).sort()).toEqual(
              books ? [`order:${o.reference}:fee`, `order:${o.reference}:float`] : [],
            );
            if (!isFinal(stored.status)) {
              expect(n).toEqual({ holds: 1, posts: 0, voids: 0 });
              expect(state).toBe("pending");
            } else if (stored.status === "success") {
              expect(n).toEqual({ holds: 1, posts: 1, voids: 0 });
              expect(state).toBe("posted");
            } else {
              expect(n).toEqual({ holds: 1, posts: 0, voids: 1 });
              expect(state).toBe("voided");
            }
          }
          for (const o of refused) {
            expect(await h.store.get(o.reference)).toBeNull();
            expect(await h.ledger.pendingOf(o.holdId!)).toBeNull();
          }
        } finally {
          await h.close();
        }
      }),
      { numRuns: name === "redis" ? 25 : 100 },
    );
  }, 120_000);
});
