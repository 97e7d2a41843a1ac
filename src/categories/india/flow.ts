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
import type { IndiaDthBill, Plan } from "../../provider/index.ts";
import { offeredOperators } from "../shared/offered.ts";

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
/** The DTH bill's amount. */
const BILLED = "b";

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

    const operators = await offeredOperators(flow, "india");
    if (!operators) return;
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
    let number: string;
    let bill: IndiaDthBill | null = null;
    for (;;) {
      number = await flow.ask(
        t(isDth ? "india-ask-dth-id" : "india-ask-number", { operator: operator.name }),
        (text) => flow.rule(isDth ? validateIndiaNumber(text) : validateIndiaMobile(text)),
      );
      if (!isDth) break;
      // A DTH subscriber's bill first: who the subscriber is and what the monthly pack costs, so a
      // wrong id is caught before anything is paid. A refused id is asked again.
      const subscriber = number;
      const fetched = await flow.lookup(() =>
        deps.provider.indiaDthBill({ operatorId: operator.id, connectionNo: subscriber, circleId }),
      );
      if (fetched.ok) {
        bill = fetched.value;
        await flow.reply(dthBillText(flow, operator, number, bill));
        break;
      }
      await flow.reply(t("india-dth-bill-rejected", { reason: fetched.message }));
    }

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
    // The DTH bill's amount, when it states one the bounds allow, is the first choice.
    const billed =
      bill?.billAmountPaisa && checkAmount(bill.billAmountPaisa, bounds).ok
        ? bill.billAmountPaisa
        : null;
    let amountPaisa: number;
    let plan: Plan | undefined;
    if (plans.length > 0 || billed !== null) {
      const billChoice =
        billed === null
          ? []
          : [
              {
                label: t("india-dth-pay-bill", {
                  amount: formatMoney(billed, { region: "in", locale: t.locale }),
                }),
                value: BILLED,
              },
            ];
      const planChoices = plans.map((p, i) => ({
        label: t("india-plan", {
          amount: formatMoney(p.amountPaisa, { region: "in", locale: t.locale }),
          details: planDetails(p),
        }),
        value: `${PLAN}${i}`,
      }));
      if (!listed.ok) await flow.reply(t("india-plans-unavailable"));
      const picked = await flow.choose(
        t("india-ask-plan", { number, ...range }),
        [...billChoice, ...planChoices],
        {
          columns: 1,
          pageSize: 5,
          typed: (text): Parsed<string> => {
            const r = parseAmount(text);
            return r.ok ? { ok: true, value: `${AMOUNT}${r.value}` } : r;
          },
        },
      );
      plan = picked.startsWith(PLAN) ? plans[Number(picked.slice(PLAN.length))] : undefined;
      if (picked === BILLED && billed !== null) amountPaisa = billed;
      else amountPaisa = plan ? plan.amountPaisa : Number(picked.slice(AMOUNT.length));
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
      [
        t("india-confirm-circle", { circle: circle.label }),
        ...(bill?.customerName ? [t("india-confirm-subscriber", { name: bill.customerName })] : []),
      ],
    );
  };
}

/** The DTH subscriber as the provider knows them: name, monthly amount, balance, next due date. */
function dthBillText(flow: Flow, operator: Operator, number: string, bill: IndiaDthBill): string {
  const { t } = flow;
  const money = (paisa: number) => formatMoney(paisa, { region: "in", locale: t.locale });
  const lines = [
    t("india-dth-bill-title", { operator: operator.name, number, name: bill.customerName ?? "-" }),
  ];
  if (bill.billAmountPaisa !== null)
    lines.push(t("india-dth-bill-amount", { amount: money(bill.billAmountPaisa) }));
  if (bill.balancePaisa !== null)
    lines.push(t("india-dth-bill-balance", { amount: money(bill.balancePaisa) }));
  if (bill.dueDate) lines.push(t("india-dth-bill-due", { date: bill.dueDate }));
  return lines.join("\n");
}

/** What a plan gives: validity and description, as the provider words them. */
function planDetails(p: Plan): string {
  return [p.validity, p.description].filter((s) => s && s.trim() !== "").join(" · ") || "-";
}
