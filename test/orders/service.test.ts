import { describe, expect, it } from "vitest";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { account, createMemoryLedger } from "../../src/ledger/index.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import type { Notification } from "../../src/orders/model.ts";
import {
  createOrders,
  InsufficientFundsError,
  OrderInputError,
  type OrdersProvider,
} from "../../src/orders/service.ts";
import type { OrderStore } from "../../src/orders/store.ts";
import { parsePriceSchedule } from "../../src/pricing/index.ts";
import type { ExecuteRequest } from "../../src/provider/requests.ts";
import type { ExecuteResult } from "../../src/provider/schemas.ts";
import { attachReceipt, mobileInput, placeAndSubmit } from "../support/orders.ts";

function accepted(req: ExecuteRequest, status = "success"): ExecuteResult {
  return {
    kind: "accepted",
    referenceNo: req.referenceNo,
    transactionId: `TX-${req.referenceNo}`,
    status,
    message: "Recharge successful",
    amountPaisa: 10_000,
    serviceChargePaisa: 0,
    instantDiscountPaisa: 100,
    debitAmountPaisa: 9_900,
    creditAvailablePaisa: 500_000,
    commissionPaisa: 50,
  };
}

function setup(execute: (req: ExecuteRequest) => Promise<ExecuteResult>) {
  const outbox: Notification[] = [];
  const store = createMemoryOrderStore({ outbox: { append: (ns) => outbox.push(...ns) } });
  const calls: ExecuteRequest[] = [];
  const provider: OrdersProvider = {
    async execute(req) {
      calls.push(req);
      return execute(req);
    },
    async statusByReference() {
      throw new Error("not used");
    },
  };
  const orders = createOrders({
    categories: CATEGORY_MODULES,
    accessMode: "staff",
    store,
    provider,
  });
  return { orders, store, outbox, calls };
}

describe("orders.place", () => {
  it("stores the order before anything is sent, and a known key returns the same order", async () => {
    const { orders, store, calls } = setup(async (req) => accepted(req));
    const input = mobileInput();
    const a = await orders.place(input);
    expect(a.status).toBe("placed");
    expect(a.reference).toMatch(/^[1-9]\d{0,14}$/);
    expect(calls).toHaveLength(0);
    expect((await store.get(a.reference))?.status).toBe("placed");
    const b = await orders.place({ ...input, amountPaisa: 99_900 });
    expect(b.reference).toBe(a.reference);
    expect(b.amountPaisa).toBe(10_000);
  });

  it("refuses an order that could never be executed, storing nothing", async () => {
    const { orders, store } = setup(async (req) => accepted(req));
    const input = mobileInput({ category: "datapack", operatorId: 8, operatorTypeId: 3 });
    await expect(orders.place(input)).rejects.toBeInstanceOf(OrderInputError);
    expect(await store.getByIdempotencyKey(input.idempotencyKey)).toBeNull();
  });

  it("uses a pre-allocated reference (package listing) and the listing's execute reference", async () => {
    const { orders, calls } = setup(async (req) => accepted(req));
    const ref = await orders.nextReference();
    const placed = await orders.place(
      mobileInput({
        reference: ref,
        executeReference: "LIST-9",
        category: "datapack",
        operatorId: 8,
        operatorTypeId: 3,
        details: { packageId: "PROD_001_inv", packageName: "1 GB" },
      }),
    );
    expect(placed.reference).toBe(ref);
    await orders.submit(placed.reference);
    expect(calls[0]).toMatchObject({
      category: "datapack",
      referenceNo: "LIST-9",
      // The data pack's execute body (spec 4.1), built by its order part.
      body: { package_id: "PROD_001_inv", reference_no: "LIST-9" },
    });
  });
});

describe("orders.submit", () => {
  it("marks submitting before the request leaves, then applies the accepted outcome", async () => {
    let seenStatus: string | undefined;
    const { orders, store, outbox } = setup(async (req) => {
      seenStatus = (await store.get(req.referenceNo))?.status;
      return accepted(req);
    });
    const placed = await orders.place(mobileInput());
    const done = await orders.submit(placed.reference);
    expect(seenStatus).toBe("submitting");
    expect(done.status).toBe("success");
    expect(done.transactionId).toBe(`TX-${placed.reference}`);
    expect(done.wallet).toMatchObject({ debitAmountPaisa: 9_900, commissionPaisa: 50 });
    expect(outbox.map((n) => n.status)).toEqual(["success"]);
  });

  it("a rejection fails the order with the provider's reason", async () => {
    const { orders } = setup(async (req) => ({
      kind: "rejected",
      referenceNo: req.referenceNo,
      httpStatus: 400,
      message: "Insufficient balance",
      rateLimited: false,
    }));
    const o = await placeAndSubmit(orders, mobileInput());
    expect(o.status).toBe("failed");
    expect(o.providerMessage).toBe("Insufficient balance");
  });

  it("an ambiguous outcome (or a thrown error) leaves the order unknown, never failed", async () => {
    const { orders } = setup(async (req) => ({
      kind: "unknown",
      referenceNo: req.referenceNo,
      reason: "timeout",
      detail: "no response",
    }));
    expect((await placeAndSubmit(orders, mobileInput())).status).toBe("unknown");
    const throwing = setup(async () => {
      throw new Error("socket hang up");
    });
    expect((await placeAndSubmit(throwing.orders, mobileInput())).status).toBe("unknown");
  });

  it("sends once however often and however concurrently submit is called", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const { orders, calls } = setup(async (req) => {
      await gate;
      return accepted(req, "queued");
    });
    const placed = await orders.place(mobileInput());
    const racing = Promise.all([1, 2, 3, 4, 5].map(() => orders.submit(placed.reference)));
    setTimeout(release, 0);
    const results = await racing;
    expect(calls).toHaveLength(1);
    expect(results.map((o) => o.status).sort()).toContain("queued");
    // A replay after a crash finds it beyond "placed": returned as is, not sent.
    const replay = await orders.submit(placed.reference);
    expect(replay.status).toBe("queued");
    expect(calls).toHaveLength(1);
  });
});

describe("orders.submit: a submitting mark written late", () => {
  /**
   * The store's write of the submitting mark takes `writeMs` (Redis away: the command waits in
   * the client's queue) on a clock the test moves. The reconciler counts the execute's time in
   * flight from the mark's stamp; an execute sent that late could reach the aggregator after the
   * reconciler believed "no such reference" and failed the order.
   */
  function lateMark(writeMs: number) {
    let clock = 1_700_000_000_000;
    const base = createMemoryOrderStore({ now: () => clock });
    const store: OrderStore = {
      ...base,
      async update(reference, mutate, known) {
        const r = await base.update(reference, mutate, known);
        if (r?.updated && r.order.status === "submitting") clock += writeMs;
        return r;
      },
    };
    const calls: ExecuteRequest[] = [];
    const provider: OrdersProvider = {
      async execute(req) {
        calls.push(req);
        return accepted(req);
      },
      async statusByReference() {
        throw new Error("not used");
      },
    };
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store,
      provider,
      now: () => clock,
      sendWindowMs: 5_000,
    });
    return { orders, calls };
  }

  it("is not followed by the execute past the send window: the order stays submitting", async () => {
    const { orders, calls } = lateMark(5_001);
    const o = await orders.place(mobileInput());
    const after = await orders.submit(o.reference);
    expect(after.status).toBe("submitting");
    expect(calls).toHaveLength(0);
    // Asked again (a retry, the checkout's replay): still nothing sent, the mark is there.
    expect((await orders.submit(o.reference)).status).toBe("submitting");
    expect(calls).toHaveLength(0);
  });

  it("within the window the execute goes as usual", async () => {
    const { orders, calls } = lateMark(5_000);
    const o = await orders.place(mobileInput());
    expect((await orders.submit(o.reference)).status).toBe("success");
    expect(calls).toHaveLength(1);
  });
});

describe("orders.apply", () => {
  it("is idempotent and notifies once per real transition", async () => {
    const { orders, outbox } = setup(async (req) => accepted(req, "queued"));
    const o = await placeAndSubmit(orders, mobileInput());
    const pending = {
      reference: o.reference,
      source: "webhook" as const,
      status: "pending" as const,
      at: 5,
    };
    expect((await orders.apply(pending)).outcome).toBe("changed");
    expect((await orders.apply(pending)).outcome).toBe("unchanged");
    const success = { ...pending, status: "success" as const };
    await orders.apply(success);
    await orders.apply(success);
    await orders.apply(pending);
    // Queued -> pending is recorded, not sent: the receipt words both alike (RECEIPT_RANK).
    expect(outbox.map((n) => n.status)).toEqual(["queued", "success"]);
  });

  it("records an event for an unknown order for an admin", async () => {
    const { orders } = setup(async (req) => accepted(req));
    const r = await orders.apply({
      reference: "99999",
      source: "webhook",
      status: "success",
      at: 1,
    });
    expect(r.outcome).toBe("unmatched");
    expect(await orders.listUnmatched()).toMatchObject([{ reference: "99999", status: "success" }]);
  });

  it("finds an order by transaction id when the event has no reference", async () => {
    const { orders } = setup(async (req) => accepted(req, "pending"));
    const o = await placeAndSubmit(orders, mobileInput());
    const r = await orders.apply({
      byTransactionId: `TX-${o.reference}`,
      source: "webhook",
      status: "success",
      at: 9,
    });
    expect(r.order?.status).toBe("success");
  });

  it("remembers the receipt message without a status change or notification", async () => {
    const { orders, outbox } = setup(async (req) => accepted(req));
    const o = await orders.place(mobileInput());
    const withReceipt = await attachReceipt(orders, o.reference, 77);
    expect(withReceipt?.receiptMessageId).toBe(77);
    expect(withReceipt?.status).toBe("placed");
    expect(outbox).toEqual([]);
  });

  it("remembers the receipt with the submitting mark, and once more on a replay that finds it sent", async () => {
    const { orders, store, calls } = setup(async (req) => accepted(req, "pending"));
    const o = await orders.place(mobileInput());
    const done = await orders.submit(o.reference, { known: o, receiptMessageId: 77 });
    expect(done.receiptMessageId).toBe(77);
    expect((await store.get(o.reference))?.history.map((h) => h.status)).toEqual([
      "placed",
      "submitting",
      "pending",
    ]);
    // A replay (the receipt sent again after a crash) moves the receipt, never executes again.
    const again = await orders.submit(o.reference, { known: o, receiptMessageId: 78 });
    expect(again.receiptMessageId).toBe(78);
    expect(again.status).toBe("pending");
    expect(calls).toHaveLength(1);
  });

  it("has the order submitting and naming its receipt in the store before the execute leaves", async () => {
    // What the aggregator's webhook (any instance) or a Confirm taken over after a kill reads
    // once the execute has left. A receipt remembered only with the execute's answer would be
    // missing there (h-status: why the submitting mark is not folded into the create).
    let storeAtExecute: { status?: string; receiptMessageId?: number } = {};
    let reference = "";
    const { orders, store } = setup(async (req) => {
      const seen = await store.get(reference);
      storeAtExecute = { status: seen?.status, receiptMessageId: seen?.receiptMessageId };
      return accepted(req, "queued");
    });
    const o = await orders.place(mobileInput());
    expect(o.status).toBe("placed");
    reference = o.reference;
    await orders.submit(o.reference, { known: o, receiptMessageId: 77 });
    expect(storeAtExecute).toEqual({ status: "submitting", receiptMessageId: 77 });
  });
});

describe("orders.place: price and access mode", () => {
  const schedule = parsePriceSchedule(
    { categories: { mobile: { fee: { flat: "5" }, discount: { flat: "2" } } } },
    "test",
  );
  const withLedger = (accessMode: "staff" | "prepaid") => {
    const ledger = createMemoryLedger();
    const store = createMemoryOrderStore({ ledger });
    const sent: ExecuteRequest[] = [];
    const provider: OrdersProvider = {
      async execute(req) {
        sent.push(req);
        return accepted(req);
      },
      async statusByReference() {
        throw new Error("not used");
      },
    };
    return {
      ledger,
      sent,
      orders: createOrders({
        categories: CATEGORY_MODULES,
        store,
        provider,
        pricing: schedule,
        accessMode,
      }),
    };
  };

  it("staff: stores the face amount as the price (nobody pays a fee) and takes no hold", async () => {
    const { orders, ledger } = withLedger("staff");
    const o = await orders.place(mobileInput());
    expect(o.price).toEqual({
      amountPaisa: 10_000,
      feePaisa: 0,
      discountPaisa: 0,
      totalPaisa: 10_000,
    });
    expect(o.holdId).toBeUndefined();
    expect(await ledger.accounts()).toEqual([]);
  });

  it("prepaid: a short balance is InsufficientFundsError; a covered one holds the total and sends the face amount", async () => {
    const { orders, ledger, sent } = withLedger("prepaid");
    const input = mobileInput();
    const err = await orders.place(input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientFundsError);
    expect(err).toMatchObject({ availablePaisa: 0, totalPaisa: 10_300, shortfallPaisa: 10_300 });
    await ledger.transfer({
      id: "fund",
      debit: account.merchant.funding,
      credit: account.customer(input.userId),
      amountPaisa: 10_300,
      kind: "credit",
    });
    const done = await placeAndSubmit(orders, input);
    expect(done.status).toBe("success");
    // The face amount, Rs 100, in the execute body (spec 4.1).
    expect(sent.map((r) => r.body.amount)).toEqual([100]);
    expect((await ledger.pendingOf(done.holdId!))?.state).toBe("posted");
    expect((await ledger.balance(account.customer(input.userId))).postedPaisa).toBe(0);
    expect((await ledger.check()).ok).toBe(true);
  });
});
