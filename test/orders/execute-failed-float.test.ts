import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { finalText } from "../../src/bot/order-texts.ts";
import { createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import type { Orders, WalletReading } from "../../src/orders/service.ts";
import {
  availableOf,
  creditCustomer,
  frontOnExecute,
  ordersOnRedis,
  type SandboxAggregator,
  startQuickSandbox,
} from "../support/order-rig.ts";
import { mobileInput, placeAndSubmit, testRedis } from "../support/orders.ts";

/**
 * Review s33-rvprov, 1: the aggregator answers an execute in its success envelope with the
 * order's own status "failed" (spec 3: "failed" is an execution response's status) and words
 * saying the merchant's wallet is short. Read as a plain failure: the customer's push gave
 * "Insufficient balance in wallet" as the reason (a false word about their own balance, which
 * holds the money), no admin was told the float is short (the answer carries no balance), and the
 * reservation of the customer's daily limit was kept. Now it is the float refusal a rejected
 * answer saying so already is: marked short, the customer told the service is briefly
 * unavailable, the low-float watch told of a refusal. The sandbox behind a front that answers so
 * without executing; real Redis.
 */

const TOKEN = "execute-failed-float-token";
const FUNDED = 100_000;
const i18n = createI18n(() => "en");

/** The aggregator's answer: success envelope, the order failed for its wallet, nothing debited. */
const failedForWallet = (words: string, creditAvailable?: string) =>
  frontOnExecute(async (_res, req) => {
    const sent = (await req.json()) as Record<string, unknown>;
    return Response.json({
      error: false,
      message: words,
      data: {
        transaction_id: `TX-${String(sent.reference_no)}`,
        reference_no: sent.reference_no,
        amount: sent.amount,
        credit_consumed: { service_charge: 0, instant_discount: 0, debit_amount: 0 },
        ...(creditAvailable === undefined ? {} : { credit_available: creditAvailable }),
        status: "failed",
      },
    });
  });

describe("an execute answered 'failed' in the success envelope for the merchant's wallet", () => {
  const r = testRedis("execute-failed-float");
  let words = "Insufficient balance in wallet";
  let credit: string | undefined;
  let aggregator: SandboxAggregator;
  let ledger: LedgerStore;
  let orders: Orders;
  const readings: WalletReading[] = [];

  beforeAll(async () => {
    aggregator = await startQuickSandbox(TOKEN, {
      front: async (req, env, sandbox) => failedForWallet(words, credit)(req, env, sandbox),
    });
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    orders = ordersOnRedis(r, {
      accessMode: "prepaid",
      provider: aggregator.client,
      onWalletReading: async (reading) => {
        readings.push(reading);
      },
    });
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  it("is a float refusal: the customer is not told their balance is short, the watch is told", async () => {
    const userId = 3301;
    await creditCustomer(ledger, userId, FUNDED);
    const order = await placeAndSubmit(orders, mobileInput({ userId, chatId: userId }));
    expect(order.status).toBe("failed");
    expect(order.floatShort).toBe(true);
    // The aggregator's words stay on the order for staff.
    expect(order.providerMessage).toBe("Insufficient balance in wallet");
    // The hold is returned.
    expect(await availableOf(ledger, userId)).toBe(FUNDED);
    for (const locale of ["en", "ne", "hi"]) {
      const text = finalText(translator(i18n, locale), order);
      expect(text, locale).not.toContain("Insufficient balance");
      expect(text, locale).toContain(translator(i18n, locale)("notify-service-unavailable"));
    }
    const reading = readings.find((x) => x.reference === order.reference);
    expect(reading).toMatchObject({ refused: true });
  });

  it("with the wallet's figure in the answer, the watch gets the figure and the refusal", async () => {
    words = "Your wallet balance is not sufficient";
    credit = "12.00";
    const userId = 3302;
    await creditCustomer(ledger, userId, FUNDED);
    const order = await placeAndSubmit(orders, mobileInput({ userId, chatId: userId }));
    expect(order).toMatchObject({ status: "failed", floatShort: true });
    const reading = readings.find((x) => x.reference === order.reference);
    expect(reading).toMatchObject({ refused: true, creditAvailablePaisa: 1_200 });
  });

  it("any other failure in the success envelope keeps the aggregator's words", async () => {
    words = "Operator rejected: invalid subscriber";
    credit = undefined;
    const userId = 3303;
    await creditCustomer(ledger, userId, FUNDED);
    const order = await placeAndSubmit(orders, mobileInput({ userId, chatId: userId }));
    expect(order.status).toBe("failed");
    expect(order.floatShort).toBeUndefined();
    expect(finalText(translator(i18n, "en"), order)).toContain(
      "Operator rejected: invalid subscriber",
    );
    expect(readings.some((x) => x.reference === order.reference)).toBe(false);
  });
});
