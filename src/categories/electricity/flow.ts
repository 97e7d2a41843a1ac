import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { type Choice, Flow, type Parsed, type Step } from "../../bot/flow/toolkit.ts";
import { validateNepalPhone } from "../../catalog/index.ts";
import {
  type BillState,
  billOrder,
  billSteps,
  operatorAndOfficeSteps,
  parseAccount,
} from "../shared/bill.ts";
import { checkElectricityBill } from "./lookup.ts";

/**
 * Electricity (NEA) bill: office (paged, searchable) -> SC number -> customer id -> phone -> bill
 * check -> the bill -> pay the due or another amount -> confirm. The order is placed under the
 * reference the bill check used.
 */

const keep = (value: string | undefined): Choice[] => (value ? [{ label: value, value }] : []);

interface State extends BillState {
  scNo?: string;
  customerId?: string;
  phone?: string;
}

export function electricityConversation(deps: BotDeps) {
  return async function electricity(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps, "electricity");
    const { t } = flow;

    // The catalogue's phone rule; its length errors say which kind the input looked like.
    const parsePhone = (text: string): Parsed<string> => {
      const r = validateNepalPhone(text);
      if (!r.ok && r.error.code === "not_digits")
        return { ok: false, error: t("electricity-phone-invalid") };
      return flow.rule(r);
    };

    // After a refused bill check everything is asked again, each previous answer a tap away.
    const steps: Step<State>[] = [
      ...operatorAndOfficeSteps<State>(
        flow,
        "electricity",
        "electricity-ask-operator",
        (operator) => t("electricity-ask-office", { operator: operator.name }),
        2,
        (st, entry) => {
          st.scNo = entry.biller?.scNo;
          st.customerId = entry.number;
          st.phone = entry.biller?.phone;
        },
      ),
      {
        name: "sc",
        run: async (st) => {
          if (st.from && st.scNo !== undefined) return;
          // The office is named at once (a typed search picks it without showing the list).
          st.scNo = await flow.ask(
            t("electricity-ask-sc", { office: st.office!.label }),
            (text) => parseAccount(flow, text),
            { choices: keep(st.scNo) },
          );
        },
      },
      {
        name: "customer",
        editKey: "flow-edit-customer",
        run: async (st) => {
          if (st.from) return;
          st.customerId = await flow.ask(
            t("electricity-ask-customer"),
            (text) => parseAccount(flow, text),
            { choices: keep(st.customerId) },
          );
        },
      },
      {
        name: "phone",
        run: async (st) => {
          if (st.from && st.phone !== undefined) return;
          st.phone = await flow.ask(t("electricity-ask-phone"), parsePhone, {
            choices: keep(st.phone),
          });
        },
      },
      ...billSteps<State>(flow, {
        category: "electricity",
        key: (st) => `${st.scNo}|${st.customerId}|${st.phone}`,
        account: (st) => ({ connectionNo: st.customerId!, scNo: st.scNo! }),
        check: (st, referenceNo) =>
          checkElectricityBill(deps.provider, {
            operatorId: st.operator!.id,
            operatorTypeId: st.operator!.operatorTypeId,
            connectionNo: st.customerId!,
            referenceNo,
            phone: st.phone!,
            scNo: st.scNo!,
            officeCode: st.office!.value,
          }),
        rejected: (reason) => t("electricity-bill-rejected", { reason }),
        title: (st, bill) =>
          t("electricity-bill-title", { name: bill.customerName || st.customerId!, sc: st.scNo! }),
        redo: "sc",
      }),
    ];

    await flow.steps<State>({}, steps, (st) =>
      billOrder(flow, "electricity", st, st.customerId!, {
        details: { scNo: st.scNo!, phone: st.phone! },
        lines: [
          t("electricity-confirm-sc", { sc: st.scNo! }),
          t("electricity-confirm-phone", { phone: st.phone! }),
        ],
      }),
    );
  };
}
