import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { type Choice, Flow, type Parsed } from "../../bot/flow/toolkit.ts";
import {
  checkAmount,
  type Operator,
  validateAmount,
  validateIndiaMobile,
  validateIndiaNumber,
} from "../../catalog/index.ts";
import { formatMoney } from "../../money.ts";
import type { Plan } from "../../provider/index.ts";

/**
 * India recharge: circle (paged, searchable) -> kind (prepaid / postpaid / DTH) -> operator ->
 * number or DTH subscriber id -> a plan from the list or a typed amount -> confirm. Amounts in ₹.
 * The kind comes first so each keyboard stays short and the number prompt fits the kind.
 */

const KINDS = ["prepaid", "postpaid", "dth"] as const;
const BACK = "back";

/** Plan choices are "p<index>", a typed amount "a<paisa>": the two cannot be confused. */
const PLAN = "p";
const AMOUNT = "a";

export function indiaConversation(deps: BotDeps) {
  return async function india(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;

    const loaded = await flow.lookup(() => deps.provider.circles());
    if (!loaded.ok || loaded.value.length === 0) {
      await flow.reply(t("india-circles-failed", { reason: loaded.ok ? "-" : loaded.message }));
      return;
    }
    const circles: Choice[] = loaded.value.map((c) => ({ label: c.circleName, value: c.circleId }));
    const circleId = await flow.choose(t("india-ask-circle"), circles, {
      columns: 2,
      pageSize: 8,
      searchable: true,
    });
    const circle = circles.find((c) => c.value === circleId)!;

    const operators = deps.catalog.byCategory("india");
    let chosen: Operator | undefined;
    while (!chosen) {
      const kind = await flow.choose(
        t("india-ask-kind", { circle: circle.label }),
        KINDS.filter((k) => operators.some((o) => o.india === k)).map((k) => ({
          label: t(`india-kind-${k}`),
          value: k,
        })),
        { columns: 1 },
      );
      const picked = await flow.choose(
        t("india-ask-operator", { kind: t(`india-kind-${kind}`) }),
        [
          ...operators
            .filter((o) => o.india === kind)
            .map((o) => ({ label: o.name, value: String(o.id) })),
          { label: t("common-back"), value: BACK },
        ],
        { columns: 2 },
      );
      if (picked !== BACK) chosen = deps.catalog.operator(Number(picked));
    }
    const operator = chosen;

    // The sandbox (like the operators' recharge APIs) takes DTH subscribers by a 10-digit id or the
    // registered mobile number, so DTH takes any 10 digits; a mobile must also start with 6 to 9.
    const isDth = operator.india === "dth";
    const number = await flow.ask(
      t(isDth ? "india-ask-dth-id" : "india-ask-number", { operator: operator.name }),
      (text) => flow.rule(isDth ? validateIndiaNumber(text) : validateIndiaMobile(text)),
    );

    const bounds = deps.catalog.amountBounds(operator)!;
    const range = {
      min: formatMoney(bounds.minPaisa, { region: "in", locale: t.locale }),
      max: formatMoney(bounds.maxPaisa, { region: "in", locale: t.locale }),
    };
    const parseAmount = (text: string) => flow.rule(validateAmount(text, bounds), "in");

    const listed = await flow.lookup(() =>
      deps.provider.indiaPlans({ operatorId: operator.id, circleId }),
    );
    // Plans outside the amount bounds could never be executed: they are not offered.
    const plans = listed.ok
      ? listed.value.filter((p) => checkAmount(p.amountPaisa, bounds).ok)
      : [];
    let amountPaisa: number;
    let plan: Plan | undefined;
    if (plans.length > 0) {
      const planChoices = plans.map((p, i) => ({
        label: t("india-plan", {
          amount: formatMoney(p.amountPaisa, { region: "in", locale: t.locale }),
          details: planDetails(p),
        }),
        value: `${PLAN}${i}`,
      }));
      const picked = await flow.choose(t("india-ask-plan", { number, ...range }), planChoices, {
        columns: 1,
        pageSize: 5,
        typed: (text): Parsed<string> => {
          const r = parseAmount(text);
          return r.ok ? { ok: true, value: `${AMOUNT}${r.value}` } : r;
        },
      });
      plan = picked.startsWith(PLAN) ? plans[Number(picked.slice(PLAN.length))] : undefined;
      amountPaisa = plan ? plan.amountPaisa : Number(picked.slice(AMOUNT.length));
    } else {
      if (!listed.ok) await flow.reply(t("india-plans-unavailable"));
      amountPaisa = await flow.askAmount("india-ask-amount", bounds, {
        region: "in",
        params: { number },
      });
    }

    await flow.confirmAndPlace(
      {
        category: "india",
        region: "in",
        operatorId: operator.id,
        operatorTypeId: operator.operatorTypeId,
        operatorName: operator.name,
        connectionNo: number,
        amountPaisa,
        details: {
          circleId: circle.value,
          ...(plan ? { packageName: planDetails(plan) } : {}),
          ...(plan?.id ? { packageId: plan.id } : {}),
        },
      },
      [t("india-confirm-circle", { circle: circle.label })],
    );
  };
}

/** What a plan gives: validity and description, as the provider words them. */
function planDetails(p: Plan): string {
  return [p.validity, p.description].filter((s) => s && s.trim() !== "").join(" · ") || "-";
}
