import type { FlowContext, FlowConversation } from "../../../src/bot/context.ts";
import type { BotDeps } from "../../../src/bot/deps.ts";
import { Flow } from "../../../src/bot/flow/toolkit.ts";
import { NTC_LINE_PREFIXES, validateMobileNumber } from "../../../src/catalog/index.ts";
import { formatMoney } from "../../../src/money.ts";
import { GIFT_AMOUNTS } from "./order.ts";

/** The operator a gift recharge is made on: an existing one of the catalogue. */
export const GIFT_OPERATOR = "NTC Prepaid";

/** Gift recharge: a number, one of the fixed amounts as buttons, confirm. */
export function giftConversation(deps: BotDeps) {
  return async function gift(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps, "gift");
    const { t } = flow;
    const operator = deps.catalog.byCategory("mobile").find((o) => o.name === GIFT_OPERATOR);
    if (!operator) return flow.end(t("catalog-category-withdrawn"));
    const number = await flow.ask(t("gift-ask-number"), (text) => {
      const r = validateMobileNumber(text, NTC_LINE_PREFIXES.prepaid);
      return r.ok ? { ok: true, value: r.value } : { ok: false, error: t("gift-number-invalid") };
    });
    const choices = GIFT_AMOUNTS.map((paisa) => ({
      label: formatMoney(paisa, { region: "np", locale: t.locale }),
      value: String(paisa),
    }));
    const gift = await flow.choose(t("gift-ask-amount"), choices);
    await flow.confirmAndPlace(
      {
        category: "gift",
        region: "np",
        operatorId: operator.id,
        operatorTypeId: operator.operatorTypeId,
        operatorName: operator.name,
        connectionNo: number,
        amountPaisa: Number(gift),
        details: { gift },
      },
      [t("gift-confirm-line")],
    );
  };
}
