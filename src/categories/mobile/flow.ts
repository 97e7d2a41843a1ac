import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { type Choice, Flow, type Parsed } from "../../bot/flow/toolkit.ts";
import {
  detectNtcLine,
  detectOperator,
  NTC_LINE_PREFIXES,
  prefixesFor,
  validateMobileNumber,
} from "../../catalog/index.ts";
import { offeredOperators } from "../shared/offered.ts";

/** Mobile top-up (NTC, operator family B): number -> operator (detected, can be changed) -> amount. */

const ALL_NTC = [
  ...NTC_LINE_PREFIXES.prepaid,
  ...NTC_LINE_PREFIXES.postpaid,
  ...NTC_LINE_PREFIXES.cdma,
];

export function mobileConversation(deps: BotDeps) {
  return async function mobile(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;
    const operators = await offeredOperators(flow, "mobile");
    if (!operators) return;

    const parseNumber = (text: string): Parsed<string> => {
      const r = validateMobileNumber(text, ALL_NTC);
      if (!r.ok && r.error.code === "prefix" && detectOperator(text) === "ncell") {
        return { ok: false, error: t("mobile-ncell") };
      }
      return flow.rule(r);
    };

    for (;;) {
      const number = await flow.ask(t("mobile-ask-number"), parseNumber, {
        choices: flow.env.savedNumbers.map((n) => ({ label: n, value: n })),
      });
      const detected = detectNtcLine(number);
      // The detected operator comes first and is marked; the others stay as an override.
      const ordered = [...operators].sort(
        (a, b) => Number(b.line === detected) - Number(a.line === detected),
      );
      const choices: Choice[] = ordered.map((o) => ({
        label: o.line === detected ? t("mobile-detected", { operator: o.name }) : o.name,
        value: String(o.id),
      }));
      const opId = await flow.choose(t("mobile-ask-operator", { number }), choices, { columns: 1 });
      const operator = deps.catalog.operator(Number(opId))!;
      const fits = validateMobileNumber(number, prefixesFor(operator) ?? []);
      if (!fits.ok) {
        await flow.reply(flow.ruleError(fits.error));
        continue;
      }
      const bounds = deps.catalog.amountBounds(operator)!;
      const askAmount = () => flow.askAmount("mobile-ask-amount", bounds);
      const amount = await askAmount();
      await flow.confirmAndPlace(
        {
          category: "mobile",
          region: "np",
          operatorId: operator.id,
          operatorTypeId: operator.operatorTypeId,
          operatorName: operator.name,
          connectionNo: number,
          amountPaisa: amount,
          details: {},
        },
        [],
        { editAmount: askAmount },
      );
      return;
    }
  };
}
