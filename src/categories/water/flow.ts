import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { type Choice, Flow, type Parsed, type Step } from "../../bot/flow/toolkit.ts";
import { NEPALI_MONTHS, nepaliMonthAt, validateMonth } from "../../catalog/index.ts";
import {
  type BillState,
  billOrder,
  billSteps,
  operatorAndOfficeSteps,
  parseAccount,
} from "../shared/bill.ts";
import { checkWaterBill } from "./lookup.ts";

/**
 * Water (khanepani) bill: operator -> office (paged, searchable) -> customer id -> Nepali month (by
 * name; a saved account assumes this month) -> bill check -> the bill -> pay the due or an advance
 * -> confirm. The order is placed under the reference the bill check used.
 */

interface State extends BillState {
  customerId?: string;
  monthId?: number;
  /** The month was not asked but assumed (this month, for a saved account). */
  monthAssumed?: boolean;
}

export function waterConversation(deps: BotDeps) {
  return async function water(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps, "water");
    const { t } = flow;

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

    const steps: Step<State>[] = [
      ...operatorAndOfficeSteps<State>(
        flow,
        "water",
        "water-ask-operator",
        (operator) => t("water-ask-office", { operator: operator.name }),
        1,
        (st, entry) => {
          st.customerId = entry.number;
        },
      ),
      {
        name: "customer",
        editKey: "flow-edit-customer",
        run: async (st) => {
          if (st.from) return;
          // After a refused bill check the id is asked again, the previous one a tap away.
          const last = st.customerId;
          st.customerId = await flow.ask(
            t("water-ask-customer", { office: st.office!.label }),
            (text) => parseAccount(flow, text),
            { choices: last ? [{ label: last, value: last }] : [] },
          );
        },
      },
      {
        name: "month",
        editKey: "flow-edit-month",
        run: async (st) => {
          // A saved account paid again assumes this Nepali month (two taps to the bill, as the
          // other billers); the bill's amount question offers another month. Asked otherwise.
          if (st.from) {
            const current = nepaliMonthAt(await flow.now());
            if (current !== undefined) {
              st.monthId = current;
              st.monthAssumed = true;
              return;
            }
          }
          st.monthAssumed = false;
          st.monthId = Number(
            await flow.choose(t("water-ask-month"), months, {
              columns: 3,
              pageSize: 12,
              typed: parseMonth,
            }),
          );
        },
      },
      ...billSteps<State>(flow, {
        category: "water",
        key: (st) => `${st.customerId}|${st.monthId}`,
        account: (st) => ({ connectionNo: st.customerId! }),
        check: (st, referenceNo) =>
          checkWaterBill(deps.provider, {
            operatorId: st.operator!.id,
            operatorTypeId: st.operator!.operatorTypeId,
            connectionNo: st.customerId!,
            referenceNo,
            monthId: st.monthId!,
            officeCode: st.office!.value,
          }),
        rejected: (reason) => t("water-bill-rejected", { reason }),
        title: (st, bill) =>
          t("water-bill-title", {
            name: bill.customerName || st.customerId!,
            month: t(`bill-month-${st.monthId}`),
          }),
        redo: "customer",
        other: (st) =>
          st.monthAssumed ? { label: t("water-another-month"), redo: "month" } : undefined,
      }),
    ];

    await flow.steps<State>({}, steps, (st) =>
      billOrder(flow, "water", st, st.customerId!, {
        details: { monthId: st.monthId! },
        lines: [t("water-confirm-month", { month: t(`bill-month-${st.monthId}`) })],
      }),
    );
  };
}
