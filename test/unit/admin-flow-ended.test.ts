import { describe, expect, it } from "vitest";
import { SETTLE_WORDS } from "../../conversations/settle/conversation.ts";
import { PARTIAL_REFUND_WORDS } from "../../conversations/top-up/partial-refund.ts";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { idleText } from "../../src/bot/idle.ts";

/**
 * The admins' /settle and /topups partial-refund flows are no order (review s33-rvtruth 11): their
 * idle end (and Leave, which says the same `ended` words: next-update.ts) says nothing was settled
 * or refunded, in en, ne and hi, never the orders' "Nothing was charged".
 */

const i18n = createI18n(() => "en");
const CHARGED = { en: "Nothing was charged", ne: "कुनै रकम काटिएन", hi: "कोई राशि नहीं कटी" } as const;
const SAYS = {
  settle: { en: "no order was settled", ne: "टुंगो लगाइएन", hi: "निपटान नहीं हुआ" },
  partial: { en: "nothing was decided, refunded", ne: "फिर्ता", hi: "रिफंड" },
} as const;

describe("the admins' settle and partial-refund flows, ended by the idle time or Leave", () => {
  for (const l of ["en", "ne", "hi"] as const) {
    it(`say what was not settled or refunded, in ${l}`, () => {
      const t = translator(i18n, l);
      const flows = [
        [SETTLE_WORDS, SAYS.settle[l], "/settle"],
        [PARTIAL_REFUND_WORDS, SAYS.partial[l], "/topups"],
      ] as const;
      for (const [words, says, again] of flows) {
        const ended = idleText(t, 600_000, words.again, words.ended);
        expect(ended).not.toContain(CHARGED[l]);
        expect(ended).toContain(says);
        expect(ended).toContain(again);
        // The words exist in this language (a missing key reads as its name).
        expect(ended).not.toContain("-flow-ended");
      }
    });
  }
});
