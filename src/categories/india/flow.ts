import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { Flow, type Step } from "../../bot/flow/toolkit.ts";
import { validateIndiaNumber } from "../../catalog/index.ts";
import { offeredOperators } from "../shared/offered.ts";
import { prefilled } from "../shared/prefill.ts";
import { billStep, planDetails, planStep } from "./pay.ts";
import {
  circleStep,
  circlesStep,
  type IndiaKit,
  kindStep,
  numberStep,
  operatorStep,
  type State,
} from "./steps.ts";

/**
 * India recharge: kind (prepaid / postpaid / DTH) -> number or DTH subscriber id -> operator ->
 * circle (paged, searchable) -> a plan from the list or a typed amount -> confirm. Amounts in ₹.
 * The number comes before the operator so a mobile number's series can suggest its operator and
 * circle (series.ts): one button "Airtel Prepaid · Delhi NCR (suggested)" first, then the full
 * list; picking it answers the circle too, picking another operator asks the circle with the
 * suggested one first. Only a suggestion: numbers move between operators.
 */

export function indiaConversation(deps: BotDeps) {
  return async function india(conversation: FlowConversation, ctx: FlowContext, given?: unknown) {
    const flow = await Flow.start(conversation, ctx, deps, "india");
    const { t } = flow;
    const operators = await offeredOperators(flow, "india");

    /** A DTH subscriber id (10 digits, or the registered mobile number). */
    const askDthId = (prompt: string) =>
      flow.ask(prompt, (text) => flow.rule(validateIndiaNumber(text)));

    const kit: IndiaKit = { flow, t, deps, operators, askDthId, brought: prefilled(given) };
    const steps: Step<State>[] = [
      circlesStep(kit),
      kindStep(kit),
      numberStep(kit),
      operatorStep(kit),
      circleStep(kit),
      billStep(kit),
      planStep(kit),
    ];

    await flow.steps<State>({}, steps, (st) => {
      const { operator, circle, plan } = st;
      return {
        draft: {
          category: "india",
          region: "in",
          operatorId: operator!.id,
          operatorTypeId: operator!.operatorTypeId,
          operatorName: operator!.name,
          connectionNo: st.number!,
          amountPaisa: st.amountPaisa!,
          details: {
            circleId: circle!.value,
            ...(plan ? { packageName: planDetails(plan) } : {}),
            ...(plan?.id ? { packageId: plan.id } : {}),
          },
        },
        lines: [
          t("india-confirm-circle", { circle: circle!.label }),
          ...(st.bill?.customerName
            ? [t("india-confirm-subscriber", { name: st.bill.customerName })]
            : []),
        ],
      };
    });
  };
}
