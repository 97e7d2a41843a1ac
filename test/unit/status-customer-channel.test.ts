import { describe, expect, it } from "vitest";
import { orderStatusText } from "../../conversations/status/status-text.ts";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { freshWaAccount, WA_CHAT_BASE } from "../../src/whatsapp/chat-ids.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * The staff's /status names the customer's id for what it is (review s24 leftover): a Telegram
 * user's as a Telegram id, a WhatsApp account's (a WhatsApp chat's own or a fresh one) as
 * WhatsApp's, in en, ne and hi, as the back office's personOf does.
 */

const i18n = createI18n(() => "en");
const TELEGRAM = { en: "Customer (Telegram id)", ne: "टेलिग्राम", hi: "टेलीग्राम" } as const;
const WHATSAPP = {
  en: "Customer (WhatsApp account id)",
  ne: "ग्राहक (WhatsApp खाता आईडी)",
  hi: "ग्राहक (WhatsApp खाता आईडी)",
} as const;

describe("the customer's id on the staff's /status", () => {
  for (const l of ["en", "ne", "hi"] as const) {
    it(`is a Telegram id or a WhatsApp account's, in ${l}`, () => {
      const t = translator(i18n, l);
      const tg = orderStatusText(t, placedOrder({ userId: 911 }), "agent");
      expect(tg).toContain(`${TELEGRAM[l]}`);
      expect(tg).toContain("911");
      expect(tg).not.toContain("WhatsApp");
      for (const wa of [WA_CHAT_BASE + 9_779_812_345_678, freshWaAccount(3)]) {
        const text = orderStatusText(t, placedOrder({ userId: wa, chatId: wa }), "admin");
        expect(text).toContain(`${WHATSAPP[l]}: ${wa}`);
        expect(text).not.toContain(TELEGRAM[l]);
      }
      // The customer never sees the line.
      expect(orderStatusText(t, placedOrder({ userId: 911 }), "customer")).not.toContain("911");
    });
  }
});
