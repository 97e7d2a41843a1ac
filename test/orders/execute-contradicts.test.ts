import { describe, expect, it } from "vitest";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import type { OrderStatus } from "../../src/orders/model.ts";
import { createOrders, type OrdersProvider } from "../../src/orders/service.ts";
import type { ExecuteResult } from "../../src/provider/schemas.ts";
import { loggedLines } from "../support/log-lines.ts";
import { mobileInput } from "../support/orders.ts";

/**
 * An execute answer on an order made final while it was out (the reconciler's "not found" after a
 * clock skew or a stall, a status query's "failed") changes nothing, as nothing changes a final
 * order; when it opposes the outcome it is logged as the webhook path logs a contradicting claim,
 * with its debit, so an admin can tie a drift of the books to the order (review s20-r1, finding 3).
 */

function setup(answer: (referenceNo: string) => ExecuteResult | Promise<ExecuteResult>) {
  const { logger, lines } = loggedLines({ level: "info" });
  let whileOut: (() => Promise<unknown>) | undefined;
  const provider: OrdersProvider = {
    async execute(req) {
      await whileOut?.();
      return answer(req.referenceNo);
    },
    async statusByReference() {
      throw new Error("not used");
    },
  };
  const orders = createOrders({
    categories: CATEGORY_MODULES,
    accessMode: "staff",
    store: createMemoryOrderStore({ outbox: { append: () => {} } }),
    provider,
    logger,
  });
  const alarms = () =>
    lines.filter((l) => l.msg === "provider contradicts a final order; check it by hand");
  return {
    orders,
    alarms,
    /** Moves the order to `status` while its execute is out. */
    meanwhile(status: OrderStatus, reference: () => string) {
      whileOut = () =>
        orders.apply({ reference: reference(), source: "reconciler", status, at: Date.now() });
    },
  };
}

const accepted = (referenceNo: string, status: string): ExecuteResult => ({
  kind: "accepted",
  referenceNo,
  transactionId: `TX-${referenceNo}`,
  status,
  message: status,
  amountPaisa: 10_000,
  serviceChargePaisa: 0,
  instantDiscountPaisa: 0,
  debitAmountPaisa: 9_900,
  creditAvailablePaisa: null,
  commissionPaisa: 0,
});

describe("an execute answer on an order made final while it was out", () => {
  // Fails on the code before: the answer was dropped without a trace.
  it("success on a failed order: logged with its debit, the order stays failed", async () => {
    const s = setup((ref) => accepted(ref, "success"));
    let ref = "";
    s.meanwhile("failed", () => ref);
    const placed = await s.orders.place(mobileInput());
    ref = placed.reference;
    const done = await s.orders.submit(placed.reference, { known: placed });
    expect(done.status).toBe("failed");
    expect(s.alarms()).toMatchObject([
      {
        level: 50,
        reference: placed.reference,
        stored: "failed",
        claimed: "success",
        source: "execute",
        transactionId: `TX-${placed.reference}`,
        debitPaisa: 9_900,
      },
    ]);
  });

  it("a queued answer after the webhook's success is only late: no alarm", async () => {
    const s = setup((ref) => accepted(ref, "queued"));
    let ref = "";
    s.meanwhile("success", () => ref);
    const placed = await s.orders.place(mobileInput());
    ref = placed.reference;
    expect((await s.orders.submit(placed.reference, { known: placed })).status).toBe("success");
    expect(s.alarms()).toEqual([]);
  });

  it("an execute that said nothing (unknown) on a failed order: no alarm", async () => {
    const s = setup(() => {
      throw new Error("socket hang up");
    });
    let ref = "";
    s.meanwhile("failed", () => ref);
    const placed = await s.orders.place(mobileInput());
    ref = placed.reference;
    expect((await s.orders.submit(placed.reference, { known: placed })).status).toBe("failed");
    expect(s.alarms()).toEqual([]);
  });
});
