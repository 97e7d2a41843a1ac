import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { type Choice, Flow, type Parsed } from "../../bot/flow/toolkit.ts";
import { validateNepalPhone } from "../../catalog/index.ts";
import { checkShowAndAsk, parseAccount, pickOperatorAndOffice, placeBill } from "../shared/bill.ts";

/**
 * Electricity (NEA) bill: office (paged, searchable) -> SC number -> customer id -> phone -> bill
 * check -> the bill -> pay the due or another amount -> confirm. The order is placed under the
 * reference the bill check used.
 */

const keep = (value: string | undefined): Choice[] => (value ? [{ label: value, value }] : []);

export function electricityConversation(deps: BotDeps) {
  return async function electricity(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;

    const picked = await pickOperatorAndOffice(
      flow,
      "electricity",
      "electricity-ask-operator",
      (operator) => t("electricity-ask-office", { operator: operator.name }),
      2,
    );
    if (!picked) return;
    const { operator, office } = picked;

    // The catalogue's phone rule; its length errors say which kind the input looked like.
    const parsePhone = (text: string): Parsed<string> => {
      const r = validateNepalPhone(text);
      if (!r.ok && r.error.code === "not_digits")
        return { ok: false, error: t("electricity-phone-invalid") };
      return flow.rule(r);
    };

    // After a refused bill check everything is asked again, each previous answer a tap away.
    let last: { scNo?: string; customerId?: string; phone?: string } = {};
    for (;;) {
      // The office is named at once (a typed search picks it without showing the list).
      const scNo = await flow.ask(
        t("electricity-ask-sc", { office: office.label }),
        (text) => parseAccount(flow, text),
        {
          choices: keep(last.scNo),
        },
      );
      const customerId = await flow.ask(
        t("electricity-ask-customer"),
        (text) => parseAccount(flow, text),
        {
          choices: keep(last.customerId),
        },
      );
      const phone = await flow.ask(t("electricity-ask-phone"), parsePhone, {
        choices: keep(last.phone),
      });
      last = { scNo, customerId, phone };

      const paid = await checkShowAndAsk(
        flow,
        (referenceNo) =>
          deps.provider.checkElectricityBill({
            operatorId: operator.id,
            operatorTypeId: operator.operatorTypeId,
            connectionNo: customerId,
            referenceNo,
            phone,
            scNo,
            officeCode: office.value,
          }),
        (reason) => t("electricity-bill-rejected", { reason }),
        (bill) => t("electricity-bill-title", { name: bill.customerName || customerId, sc: scNo }),
      );
      if (!paid) continue;
      await placeBill(flow, "electricity", operator, office, customerId, paid, {
        details: { scNo, phone },
        lines: [
          t("electricity-confirm-sc", { sc: scNo }),
          t("electricity-confirm-phone", { phone }),
        ],
      });
      return;
    }
  };
}
