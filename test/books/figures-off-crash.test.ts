import { afterAll, expect } from "vitest";
import { createFiguresOffAlert } from "../../src/books/index.ts";
import type { WalletEffects } from "../../src/orders/model.ts";
import { describeCrash } from "../support/hourly-crash.ts";
import { testRedis } from "../support/orders.ts";

/**
 * An order whose aggregator's figures are off is recorded on the order (`figuresOffAt`) and
 * counted in the figures-off alert's hourly window after the write. The count was a step of its
 * own: a process killed between the order's write and the count lost the alert, and no admin
 * heard that the aggregator booked a figure nobody expected. The order's write now marks it owed
 * a count (in the same atomic step), the count takes the mark, and the flush that runs first in
 * every reconciler tick counts any mark older than a short grace. The suite (the crash, two
 * repairs at once, a slow count, a guard) is shared with collision-crash.test.ts.
 */

const r = testRedis("figures-off-crash");
afterAll(() => r.cleanup());

/** An execute answer of ten times the Rs 100 sent: the figures are off. */
const slipped: WalletEffects = {
  amountPaisa: 100_000,
  serviceChargePaisa: 0,
  instantDiscountPaisa: 0,
  debitAmountPaisa: 100_000,
  creditAvailablePaisa: null,
  source: "execute",
};

describeCrash(
  "an order with figures off",
  r,
  {
    note: "figures-off",
    alert: (crossings, adminChatIds) => ({
      onFiguresOff: createFiguresOffAlert({ crossings, adminChatIds }),
    }),
    // The order answered with figures off: recorded on it, in success.
    answer: (_, at) => ({ source: "execute", status: "success", at, wallet: slipped }),
    written: (order, at) => expect(order?.figuresOffAt).toBe(at),
    told: (order) =>
      `Order ${order.reference}: the aggregator's figures are off (amount Rs 1,000, not the Rs 100 sent; debit Rs 1,000 against about Rs 100 expected).`,
    oneMore: "1 more order(s) with figures off",
  },
  1_800_000_000_100,
);
