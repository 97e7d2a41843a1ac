import { describe, expect, it } from "vitest";
import { orderStatusText } from "../../conversations/status/status-text.ts";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * Review s33-rvagent, 2: an agent's (or an admin's) /status of a customer's order still under way
 * said "We will send you a message as soon as the operator answers": the push goes to whoever
 * ordered it, never to the agent looking it up. Staff are told who gets it; the customer keeps
 * the promise, which is theirs.
 */

const i18n = createI18n(() => "en");

describe("/status of an order under way", () => {
  for (const l of ["en", "ne", "hi"] as const) {
    it(`promises the message to whoever gets it, in ${l}`, () => {
      const t = translator(i18n, l);
      const open = placedOrder({ userId: 911, status: "pending" });
      for (const role of ["agent", "admin"] as const) {
        const staff = orderStatusText(t, open, role);
        expect(staff).not.toContain(t("receipt-will-follow"));
        expect(staff).toContain(t("status-staff-follow"));
      }
      const own = orderStatusText(t, open, "customer");
      expect(own).toContain(t("receipt-will-follow"));
      expect(own).not.toContain(t("status-staff-follow"));
      // A final order promises nothing to anyone.
      const done = placedOrder({ userId: 911, status: "success" });
      expect(orderStatusText(t, done, "agent")).not.toContain(t("status-staff-follow"));
    });
  }
});
