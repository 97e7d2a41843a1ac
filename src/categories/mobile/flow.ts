import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { type Choice, Flow, type Parsed, type Step } from "../../bot/flow/toolkit.ts";
import {
  checkAmount,
  detectNtcLine,
  detectOperator,
  NTC_LINE_PREFIXES,
  type Operator,
  prefixesFor,
  validateMobileNumber,
} from "../../catalog/index.ts";
import { offeredOperators } from "../shared/offered.ts";
import { savedNumberChoices } from "../shared/saved.ts";

/** Mobile top-up (NTC, operator family B): number -> operator (detected, can be changed) -> amount. */

const ALL_NTC = [
  ...NTC_LINE_PREFIXES.prepaid,
  ...NTC_LINE_PREFIXES.postpaid,
  ...NTC_LINE_PREFIXES.cdma,
];

interface State {
  number?: string;
  operator?: Operator;
  amountPaisa?: number;
}

const fits = (number: string, operator: Operator) =>
  validateMobileNumber(number, prefixesFor(operator) ?? []).ok;

export function mobileConversation(deps: BotDeps) {
  return async function mobile(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps, "mobile");
    const { t } = flow;
    const operators = await offeredOperators(flow, "mobile");

    const parseNumber = (text: string): Parsed<string> => {
      const r = validateMobileNumber(text, ALL_NTC);
      if (!r.ok && r.error.code === "prefix" && detectOperator(text) === "ncell") {
        return { ok: false, error: t("mobile-ncell") };
      }
      return flow.rule(r);
    };

    /** The operator; one that does not fit the number is explained and asked again, the number kept. */
    const askOperator = async (number: string): Promise<Operator> => {
      const detected = detectNtcLine(number);
      // The detected operator comes first and is marked; the others stay as an override.
      const ordered = [...operators].sort(
        (a, b) => Number(b.line === detected) - Number(a.line === detected),
      );
      const choices: Choice[] = ordered.map((o) => ({
        label: o.line === detected ? t("mobile-detected", { operator: o.name }) : o.name,
        value: String(o.id),
      }));
      let prompt = t("mobile-ask-operator", { number });
      for (;;) {
        const opId = await flow.choose(prompt, choices, { columns: 1 });
        const operator = deps.catalog.operator(Number(opId))!;
        if (fits(number, operator)) return operator;
        const likely = ordered[0];
        prompt = t("mobile-operator-mismatch", {
          number,
          operator: operator.name,
          prefixes: (prefixesFor(operator) ?? []).join(", "),
          detected: likely && fits(number, likely) ? likely.name : "-",
        });
      }
    };

    const steps: Step<State>[] = [
      {
        name: "number",
        editKey: "flow-edit-number",
        run: async (st) => {
          st.number = await flow.ask(t("mobile-ask-number"), parseNumber, {
            choices: await savedNumberChoices(flow, "mobile"),
          });
        },
      },
      {
        name: "operator",
        // A changed number keeps its operator only when it still fits.
        holds: (st) => st.operator !== undefined && fits(st.number!, st.operator),
        run: async (st) => {
          st.operator = await askOperator(st.number!);
        },
      },
      {
        name: "amount",
        editKey: "flow-edit-amount",
        holds: (st) =>
          st.amountPaisa !== undefined &&
          checkAmount(st.amountPaisa, deps.catalog.amountBounds(st.operator!)!).ok,
        run: async (st) => {
          st.amountPaisa = await flow.askAmount(
            "mobile-ask-amount",
            deps.catalog.amountBounds(st.operator!)!,
          );
        },
      },
    ];

    await flow.steps<State>({}, steps, (st) => ({
      draft: {
        category: "mobile",
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
