import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { Flow, type Step } from "../../bot/flow/toolkit.ts";
import { checkAmount, type Operator, validateLandline } from "../../catalog/index.ts";
import { offeredOperators } from "../shared/offered.ts";
import { savedNumberChoices } from "../shared/saved.ts";

/** Landline (NTC landline, fibre voice, toll-free): operator -> 9-digit number -> amount. */

interface State {
  operator?: Operator;
  number?: string;
  amountPaisa?: number;
}

export function landlineConversation(deps: BotDeps) {
  return async function landline(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps, "landline");
    const { t } = flow;
    const operators = await offeredOperators(flow, "landline");
    const bounds = (st: State) => deps.catalog.amountBounds(st.operator!)!;

    const steps: Step<State>[] = [
      {
        name: "operator",
        run: async (st) => {
          const opId = await flow.choose(
            t("landline-ask-operator"),
            operators.map((o) => ({ label: o.name, value: String(o.id) })),
            { columns: 1 },
          );
          st.operator = deps.catalog.operator(Number(opId))!;
        },
      },
      {
        name: "number",
        editKey: "flow-edit-number",
        run: async (st) => {
          // Saved landlines that still pass today's rule.
          const choices = await savedNumberChoices(
            flow,
            "landline",
            (e) => validateLandline(e.number).ok,
          );
          st.number = await flow.ask(
            t("landline-ask-number", { operator: st.operator!.name }),
            (text) => flow.rule(validateLandline(text)),
            { choices },
          );
        },
      },
      {
        name: "amount",
        editKey: "flow-edit-amount",
        holds: (st) => st.amountPaisa !== undefined && checkAmount(st.amountPaisa, bounds(st)).ok,
        run: async (st) => {
          // The cap counts the price, fee included: what is offered is what fits with it.
          const priced = {
            category: "landline",
            operatorId: st.operator!.id,
            region: "np",
          } as const;
          st.amountPaisa = await flow.askOrderAmount("landline-ask-amount", bounds(st), priced);
        },
      },
    ];

    await flow.steps<State>({}, steps, (st) => ({
      draft: {
        category: "landline",
        region: "np",
        operatorId: st.operator!.id,
        operatorTypeId: st.operator!.operatorTypeId,
        operatorName: st.operator!.name,
        connectionNo: st.number!,
        amountPaisa: st.amountPaisa!,
        details: {},
      },
    }));
  };
}
