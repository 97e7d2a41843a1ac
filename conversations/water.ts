import type { FlowContext, FlowConversation } from "../src/bot/context.ts";
import type { BotDeps } from "../src/bot/deps.ts";
import { type Choice, Flow, type Parsed } from "../src/bot/flow/toolkit.ts";
import { NEPALI_MONTHS, validateMonth } from "../src/catalog/index.ts";
import {
  askBillAmount,
  billConfirmLines,
  billText,
  checkBill,
  parseAccount,
  pickOffice,
  pickOperator,
} from "./bill-common.ts";

/**
 * Water (khanepani) bill: operator -> office (paged, searchable) -> customer id -> Nepali month (by
 * name) -> bill check -> the bill -> pay the due or an advance -> confirm. The order is placed under
 * the reference the bill check used.
 */

export function waterConversation(deps: BotDeps) {
  return async function water(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;

    const operator = await pickOperator(flow, "water", "water-ask-operator");
    const office = await pickOffice(
      flow,
      operator,
      t("water-ask-office", { operator: operator.name }),
      1,
    );
    if (!office) return;

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

      const checked = await checkBill(flow, (referenceNo) =>
        deps.provider.checkWaterBill({
          operatorId: operator.id,
          operatorTypeId: operator.operatorTypeId,
          connectionNo: customerId,
          referenceNo,
          monthId,
          officeCode: office.value,
        }),
      );
      if (!checked.ok) {
        await flow.reply(t("water-bill-rejected", { reason: checked.message }));
        continue;
      }
      const { referenceNo, bill } = checked.value;
      await flow.reply(
        billText(
          flow,
          t("water-bill-title", { name: bill.customerName || customerId, month }),
          bill,
        ),
      );
      const amountPaisa = await askBillAmount(flow, bill);

      await flow.confirmAndPlace(
        {
          category: "water",
          region: "np",
          operatorId: operator.id,
          operatorTypeId: operator.operatorTypeId,
          operatorName: operator.name,
          connectionNo: customerId,
          amountPaisa,
          referenceNo,
          details: {
            officeCode: office.value,
            monthId,
            ...(bill.customerName ? { customerName: bill.customerName } : {}),
            billAmountPaisa: Math.max(0, bill.billAmountPaisa),
          },
        },
        billConfirmLines(flow, office, bill, [t("water-confirm-month", { month })]),
      );
      return;
    }
  };
}
