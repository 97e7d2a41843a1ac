import { describe, expect, it } from "vitest";
import { changeText } from "../../conversations/complaints/texts.ts";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { createComplaints, createMemoryComplaintStore } from "../../src/complaints/index.ts";
import { createMemoryLedger, type LedgerStore } from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import type { Order } from "../../src/orders/model.ts";

/**
 * The customer's notice of a complaint resolved with a refund (review s20-r2, finding 4): the
 * refund is booked before the balance is read, and a failed read leaves the balance line out.
 * It must never say "Balance: Rs 0" for a balance nobody read.
 */

const i18n = createI18n(() => "en");
const LOCALES = ["en", "ne", "hi"] as const;
const BALANCE_LINE = { en: "Balance:", ne: "मौज्दात:", hi: "बैलेंस:" } as const;

const order = {
  reference: "1700000000001",
  userId: 42,
  status: "success",
  holdId: "order:1700000000001",
  price: { amountPaisa: 25_000, feePaisa: 0, discountPaisa: 0, totalPaisa: 25_000 },
} as Order;

/** A refund of Rs 250 through the service; `readFails` makes the balance read after it throw. */
async function refundNotices(readFails: boolean) {
  const ledger = createMemoryLedger();
  const reading: Pick<LedgerStore, "balance"> = {
    balance: async (acc) => {
      if (readFails) throw new Error("redis: connection lost");
      return ledger.balance(acc);
    },
  };
  const notices: Partial<Record<(typeof LOCALES)[number], string | null>> = {};
  const service = createComplaints({
    store: createMemoryComplaintStore({ ledger }),
    orders: { get: async (ref) => (ref === order.reference ? order : null) },
    ledger: reading,
    logger: createLogger({ level: "silent" }),
    tell: async (c, change, extra) => {
      if (change !== "resolved") return;
      for (const l of LOCALES) notices[l] = changeText(translator(i18n, l), c, extra);
    },
  });
  const raised = await service.raise({
    userId: 42,
    chatId: 42,
    locale: "en",
    orderReference: order.reference,
    reason: "not_received",
  });
  if (!raised.ok) throw new Error("not raised");
  const done = await service.resolve(raised.complaint.reference, 1, {
    text: "sorry",
    refundPaisa: 25_000,
  });
  expect(done.ok).toBe(true);
  return notices;
}

describe("a complaint refund's notice", () => {
  it("leaves the balance out, in every language, when the balance read fails", async () => {
    const notices = await refundNotices(true);
    expect(notices.en).toContain("Rs 250 was returned to your balance.");
    for (const l of LOCALES) {
      expect(notices[l]).toBeTruthy();
      expect(notices[l]).not.toContain(BALANCE_LINE[l]);
    }
    expect(notices.en).not.toContain("Rs 0");
  });

  it("names the balance read after the refund when the read works", async () => {
    const notices = await refundNotices(false);
    expect(notices.en).toContain("Rs 250 was returned to your balance. Balance: Rs 250");
    for (const l of LOCALES) expect(notices[l]).toContain(BALANCE_LINE[l]);
  });
});
