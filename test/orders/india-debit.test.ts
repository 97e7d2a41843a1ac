import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import type { Orders } from "../../src/orders/service.ts";
import { inrToNprPaisa } from "../../src/pricing/index.ts";
import {
  creditCustomer,
  frontOnExecute,
  ordersOnRedis,
  reconcileUntil,
  type SandboxAggregator,
  startQuickSandbox,
} from "../support/order-rig.ts";
import { mobileInput, placeAndSubmit, testRedis } from "../support/orders.ts";

/**
 * Review s25-c, finding 2 and its note: an India execute answer without `credit_consumed` (the
 * spec's fallback, debit = amount + charge − discount, is then in ₹) must not book that ₹ figure
 * on the Nepal-rupee float. The order's own estimate is booked instead: its ₹ amount converted at
 * its rate (prepaid: the order's exchange; staff: INR_TO_NPR_RATE as configured when it was
 * placed, not the built-in 1.6), marked inferred. The sandbox's answers go through a front that
 * drops `credit_consumed`.
 */

const TOKEN = "india-debit-token";
/** The product's INR_TO_NPR_RATE here: 1.65, not the peg the sandbox and the built-in use. */
const RATE_E4 = 16_500;

const indiaInput = (userId: number, connectionNo: string) =>
  mobileInput({
    userId,
    chatId: userId,
    category: "india",
    region: "in",
    operatorId: 202,
    operatorTypeId: 1,
    operatorName: "Airtel Prepaid",
    connectionNo,
    details: { circleId: "5" },
    amountPaisa: 10_000,
  } as never);

describe.each([
  ["staff", 0],
  ["prepaid", 1],
] as const)("an India execute answer without credit_consumed (%s)", (mode, n) => {
  const r = testRedis(`india-debit-${mode}`);
  let aggregator: SandboxAggregator;
  let ledger: LedgerStore;
  let orders: Orders;
  let stripped = 0;

  beforeAll(async () => {
    aggregator = await startQuickSandbox(TOKEN, {
      front: frontOnExecute(async (res) => {
        const body = (await res.json()) as { data?: Record<string, unknown> };
        if (body.data && "credit_consumed" in body.data) {
          delete body.data.credit_consumed;
          stripped++;
        }
        return Response.json(body, { status: res.status });
      }),
    });
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    orders = ordersOnRedis(r, {
      accessMode: mode,
      provider: aggregator.client,
      inrToNprRateE4: RATE_E4,
    });
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  it("books the ₹100 order's debit as Rs 165 (its rate), marked inferred, never Rs 100", async () => {
    const userId = 7100 + n;
    if (mode === "prepaid") await creditCustomer(ledger, userId, 100_000);
    const placed = await placeAndSubmit(orders, indiaInput(userId, `981001230${n}`));
    expect(stripped).toBe(1);
    // The execute's figures are on the order from its answer; the status query makes it final.
    const done = await reconcileUntil(r, orders, aggregator.client, placed.reference, "success");
    const expected = inrToNprPaisa(10_000, RATE_E4);
    expect(expected).toBe(16_500);
    expect(done.wallet).toMatchObject({ debitAmountPaisa: expected, source: "inferred" });
    const { entries } = await ledger.journal({ limit: 100 });
    const float = entries.filter((e) => e.id === `order:${done.reference}:float`);
    expect(float).toHaveLength(1);
    expect(float[0]).toMatchObject({ amountPaisa: expected, kind: "float_debit" });
    expect(float[0]?.reason).toMatch(/inferred/);
  });
});
