import type { FlowContext, FlowConversation } from "../src/bot/context.ts";
import type { BotDeps } from "../src/bot/deps.ts";
import { Flow } from "../src/bot/flow/toolkit.ts";
import { formatRupees } from "../src/bot/format.ts";
import { validateAmount, validateLandline } from "../src/catalog/index.ts";

/** Landline (NTC landline, fibre voice, toll-free): operator -> 9-digit number -> amount. */

const QUICK_AMOUNTS = [100, 200, 500, 1000];

export function landlineConversation(deps: BotDeps) {
  return async function landline(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;
    const operators = deps.catalog.byCategory("landline");

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
    const amount = await flow.ask(
      t("landline-ask-amount", {
        min: formatRupees(bounds.minPaisa),
        max: formatRupees(bounds.maxPaisa),
      }),
      (text) => flow.rule(validateAmount(text, bounds)),
      {
        choices: QUICK_AMOUNTS.filter(
          (r) => r * 100 >= bounds.minPaisa && r * 100 <= bounds.maxPaisa,
        ).map((r) => ({
          label: formatRupees(r * 100),
          value: String(r),
        })),
        columns: 4,
      },
    );

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
