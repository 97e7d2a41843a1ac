import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { Flow } from "../../bot/flow/toolkit.ts";
import { validateLandline } from "../../catalog/index.ts";
import { offeredOperators } from "../shared/offered.ts";

/** Landline (NTC landline, fibre voice, toll-free): operator -> 9-digit number -> amount. */

export function landlineConversation(deps: BotDeps) {
  return async function landline(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;
    const operators = await offeredOperators(flow, "landline");
    if (!operators) return;

    const opId = await flow.choose(
      t("landline-ask-operator"),
      operators.map((o) => ({ label: o.name, value: String(o.id) })),
      { columns: 1 },
    );
    const operator = deps.catalog.operator(Number(opId))!;

    // Saved numbers of other categories (mobiles, India) are not landlines: offer only those that fit.
    const saved = flow.env.savedNumbers.filter((n) => validateLandline(n).ok);
    const number = await flow.ask(
      t("landline-ask-number", { operator: operator.name }),
      (text) => flow.rule(validateLandline(text)),
      { choices: saved.map((n) => ({ label: n, value: n })) },
    );

    const bounds = deps.catalog.amountBounds(operator)!;
    const amount = await flow.askAmount("landline-ask-amount", bounds);

    await flow.confirmAndPlace({
      category: "landline",
      region: "np",
      operatorId: operator.id,
      operatorTypeId: operator.operatorTypeId,
      operatorName: operator.name,
      connectionNo: number,
      amountPaisa: amount,
      details: {},
    });
  };
}
