import type { FlowContext, FlowConversation } from "../src/bot/context.ts";
import type { BotDeps } from "../src/bot/deps.ts";
import { type Choice, Flow, type Parsed } from "../src/bot/flow/toolkit.ts";
import { normalizeNepalNumber } from "../src/catalog/index.ts";
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
 * Electricity (NEA) bill: office (paged, searchable) -> SC number -> customer id -> phone -> bill
 * check -> the bill -> pay the due or another amount -> confirm. The order is placed under the
 * reference the bill check used.
 */

/**
 * A Nepali phone as the bill's contact: a mobile (10 digits starting with 9) or a landline of 7 to
 * 9 digits (with or without its area code); "+977", spaces, dashes and a trunk 0 are dropped.
 */
export function normalizePhone(text: string): string | null {
  const n = normalizeNepalNumber(text)?.replace(/^0+/, "");
  if (!n) return null;
  if (n.length === 10 && n.startsWith("9")) return n;
  if (n.length >= 7 && n.length <= 9 && !n.startsWith("9")) return n;
  return null;
}

const keep = (value: string | undefined): Choice[] => (value ? [{ label: value, value }] : []);

export function electricityConversation(deps: BotDeps) {
  return async function electricity(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;

    const operator = await pickOperator(flow, "electricity", "electricity-ask-operator");
    const office = await pickOffice(
      flow,
      operator,
      t("electricity-ask-office", { operator: operator.name }),
      2,
    );
    if (!office) return;

    const parsePhone = (text: string): Parsed<string> => {
      if (text.trim() === "") return { ok: false, error: t("err-empty") };
      const phone = normalizePhone(text);
      return phone
        ? { ok: true, value: phone }
        : { ok: false, error: t("electricity-phone-invalid") };
    };

    // After a refused bill check everything is asked again, each previous answer a tap away.
    let last: { scNo?: string; customerId?: string; phone?: string } = {};
    for (;;) {
      const scNo = await flow.ask(t("electricity-ask-sc"), (text) => parseAccount(flow, text), {
        choices: keep(last.scNo),
      });
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

      const checked = await checkBill(flow, (referenceNo) =>
        deps.provider.checkElectricityBill({
          operatorId: operator.id,
          operatorTypeId: operator.operatorTypeId,
          connectionNo: customerId,
          referenceNo,
          phone,
          scNo,
          officeCode: office.value,
        }),
      );
      if (!checked.ok) {
        await flow.reply(t("electricity-bill-rejected", { reason: checked.message }));
        continue;
      }
      const { referenceNo, bill } = checked.value;
      await flow.reply(
        billText(
          flow,
          t("electricity-bill-title", { name: bill.customerName || customerId, sc: scNo }),
          bill,
        ),
      );
      const amountPaisa = await askBillAmount(flow, bill);

      await flow.confirmAndPlace(
        {
          category: "electricity",
          region: "np",
          operatorId: operator.id,
          operatorTypeId: operator.operatorTypeId,
          operatorName: operator.name,
          connectionNo: customerId,
          amountPaisa,
          referenceNo,
          details: {
            officeCode: office.value,
            scNo,
            phone,
            ...(bill.customerName ? { customerName: bill.customerName } : {}),
            billAmountPaisa: Math.max(0, bill.billAmountPaisa),
          },
        },
        billConfirmLines(flow, office, bill, [
          t("electricity-confirm-sc", { sc: scNo }),
          t("electricity-confirm-phone", { phone }),
        ]),
      );
      return;
    }
  };
}
