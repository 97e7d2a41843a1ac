import { afterAll, expect } from "vitest";
import { COLLISION_KIND } from "../../src/books/collision-alert.ts";
import { createCollisionAlert } from "../../src/books/index.ts";
import { describeCrash, heldRefusal } from "../support/hourly-crash.ts";
import { testRedis } from "../support/orders.ts";

/**
 * An execute refused for a reference the aggregator already holds (a reference counter set back by
 * a restore) fails the order in its write, and the admins' alert is counted in the
 * reference-collision window after it. The count was a step of its own: a process killed between
 * the write and the count lost the alert, and no admin heard that the counter was set back while
 * it went on refusing orders. The write now marks the order owed the count (in the same atomic
 * step), the count takes the mark, and the flush that runs first in every reconciler tick tells
 * or counts a mark older than a short grace, as for the figures-off alert: the same suite as
 * figures-off-crash.test.ts (test/support/hourly-crash.ts).
 */

const r = testRedis("collision-crash");
afterAll(() => r.cleanup());

/** The aggregator's words for the refusal, kept on the order as its `providerMessage`. */
const REFUSAL = "Duplicate reference_no";

describeCrash(
  "an execute refused as a held reference",
  r,
  {
    note: COLLISION_KIND.name,
    alert: (crossings, adminChatIds) => ({
      onAdminNote: createCollisionAlert({ crossings, adminChatIds }),
    }),
    // The order's execute refused with a 409, as the aggregator answers it: the order failed.
    answer: (reference, at) => heldRefusal(reference, at, REFUSAL),
    written: (order) => expect(order?.status).toBe("failed"),
    // The repair's words are the live ones: the refusal as the order keeps it.
    told: (order) =>
      `Order ${order.reference}: the aggregator refused the execute as a duplicate of a reference it already holds ("${REFUSAL}").`,
    oneMore: "1 more order(s) refused the same way",
  },
  1_800_000_000_200,
);
