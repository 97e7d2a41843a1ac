import { afterAll, expect } from "vitest";
import { createCollisionAlert } from "../../src/books/index.ts";
import { OUR_SIDE_KIND } from "../../src/books/our-side-alert.ts";
import { eventFromExecute } from "../../src/orders/provider-events.ts";
import { describeCrash } from "../support/hourly-crash.ts";
import { testRedis } from "../support/orders.ts";

/**
 * An execute refused on our side (401 our token: review s33-rvprov, 3) fails the order in its
 * write, and the admins' alert is counted in its own window after it. The write marks the order
 * owed the count in the same atomic step, so a process killed between the write and the count
 * loses no alert: the flush's repair tells or counts it, in this topic's words (never the
 * collisions'), from what the order keeps. The same suite as collision-crash.test.ts.
 */

const r = testRedis("our-side-crash");
afterAll(() => r.cleanup());

const REFUSAL = "Unauthenticated.";

describeCrash(
  "an execute refused on our side",
  r,
  {
    note: OUR_SIDE_KIND.name,
    alert: (crossings, adminChatIds) => ({
      onAdminNote: createCollisionAlert({ crossings, adminChatIds }),
    }),
    answer: (reference, at) =>
      eventFromExecute(
        {
          kind: "rejected",
          referenceNo: reference,
          httpStatus: 401,
          message: REFUSAL,
          rateLimited: false,
        },
        at,
      ),
    written: (order) => expect(order).toMatchObject({ status: "failed", floatShort: true }),
    // The repair's words are the live ones: the status and the words the order keeps.
    told: (order) =>
      `Order ${order.reference}: the aggregator refused the execute on our side: HTTP 401 ("${REFUSAL}"): our token was not accepted`,
    oneMore: "1 more order(s) refused on our side (token, IP or rate)",
  },
  1_800_000_000_400,
);
