import { describe, expect, it } from "vitest";
import { orderStatusText } from "../../conversations/status/status-text.ts";
import { translator } from "../../src/bot/i18n.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { settleSection } from "../../src/dashboard/pages/order-settle.ts";
import type { Order } from "../../src/orders/model.ts";
import { createChatI18n } from "../../src/system/bot.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * A settled order the aggregator's own final answer later confirmed (`settled.confirmedAt`,
 * final-order.ts): the back office's settlement view and the chat's /status for staff show when,
 * in every language; one not confirmed says so.
 */

// 2026-11-27 06:15:00 UTC: 12:00 in Nepal (UTC+5:45).
const CONFIRMED = Date.UTC(2026, 10, 27, 6, 15, 0);
const AT = CONFIRMED - 3_600_000;

function settledOrder(confirmedAt?: number): Order {
  return placedOrder({
    status: "failed",
    settled: {
      by: 7001,
      reason: "operator says no recharge",
      aggregator: "status pending",
      admins: [7001],
      at: AT,
      ...(confirmedAt === undefined ? {} : { confirmedAt }),
    },
  });
}

describe("a settlement the aggregator later confirmed", () => {
  it("is shown on the dashboard's settlement view with its time", () => {
    const viewer = { userId: 7001, role: "admin" as const };
    const shown = String(settleSection(settledOrder(CONFIRMED), null, viewer));
    expect(shown).toContain("Confirmed later");
    expect(shown).toContain(
      "2026-11-27 06:15:00 UTC: a final answer of the aggregator said the same",
    );
    const open = String(settleSection(settledOrder(), null, viewer));
    expect(open).toContain("Confirmed later");
    expect(open).not.toContain("said the same");
  });

  it("is shown in /status to staff in en, ne and hi, in Nepal time with Latin digits", () => {
    const i18n = createChatI18n(CATEGORY_MODULES);
    const words = { en: "said the same", ne: "त्यही भन्यो", hi: "यही कहा" };
    for (const [locale, word] of Object.entries(words)) {
      const t = translator(i18n, locale);
      const text = orderStatusText(t, settledOrder(CONFIRMED), "admin");
      const line = text.split("\n").find((l) => l.includes(word)) ?? "";
      expect(line).toContain("12:00");
      expect(line).toMatch(/NPT/);
      expect(line).not.toMatch(/[०-९]/);
      expect(orderStatusText(t, settledOrder(), "admin")).not.toContain(word);
      expect(orderStatusText(t, settledOrder(CONFIRMED), "customer")).not.toContain(word);
    }
  });
});
