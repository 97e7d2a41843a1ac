import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { type Choice, Flow, type Parsed } from "../../bot/flow/toolkit.ts";
import { NEPALI_MONTHS, validateMonth } from "../../catalog/index.ts";
import { checkShowAndAsk, parseAccount, pickOperatorAndOffice, placeBill } from "../shared/bill.ts";

/**
 * Water (khanepani) bill: operator -> office (paged, searchable) -> customer id -> Nepali month (by
 * name) -> bill check -> the bill -> pay the due or an advance -> confirm. The order is placed under
 * the reference the bill check used.
 */

export function waterConversation(deps: BotDeps) {
  return async function water(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;

    const picked = await pickOperatorAndOffice(
      flow,
      "water",
      "water-ask-operator",
      (operator) => t("water-ask-office", { operator: operator.name }),
      1,
    );
    if (!picked) return;
    const { operator, office } = picked;

    const months: Choice[] = NEPALI_MONTHS.map((_, i) => ({
      label: t(`bill-month-${i + 1}`),
      value: String(i + 1),
    }));
    // Buttons show names; a typed name (English or the user's language) or month number also works.
    const parseMonth = (text: string): Parsed<string> => {
      const s = text.trim().toLowerCase();
      const named = months.find(
        (m, i) => m.label.toLowerCase() === s || NEPALI_MONTHS[i]?.toLowerCase() === s,
      );
      if (named) return { ok: true, value: named.value };
      const n = validateMonth(text);
      return n.ok ? { ok: true, value: String(n.value) } : flow.rule(n);
    };

    let lastCustomer: string | undefined;
    for (;;) {
      // After a refused bill check the id is asked again, the previous one a tap away.
      const customerId = await flow.ask(
        t("water-ask-customer", { office: office.label }),
        (text) => parseAccount(flow, text),
        { choices: lastCustomer ? [{ label: lastCustomer, value: lastCustomer }] : [] },
      );
      lastCustomer = customerId;
      const monthId = Number(
        await flow.choose(t("water-ask-month"), months, {
          columns: 3,
          pageSize: 12,
          typed: parseMonth,
        }),
      );
      const month = t(`bill-month-${monthId}`);

      const paid = await checkShowAndAsk(
        flow,
        (referenceNo) =>
          deps.provider.checkWaterBill({
            operatorId: operator.id,
            operatorTypeId: operator.operatorTypeId,
            connectionNo: customerId,
            referenceNo,
            monthId,
            officeCode: office.value,
          }),
        (reason) => t("water-bill-rejected", { reason }),
        (bill) => t("water-bill-title", { name: bill.customerName || customerId, month }),
      );
      if (!paid) continue;
      await placeBill(flow, "water", operator, office, customerId, paid, {
        details: { monthId },
        lines: [t("water-confirm-month", { month })],
      });
      return;
    }
  };
}
