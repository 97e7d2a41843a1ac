import { type Flow, type Parsed, type Step, wordedMax } from "../../bot/flow/toolkit.ts";
import { checkAmount, type Operator, validateAmount } from "../../catalog/index.ts";
import { formatMoney } from "../../money.ts";
import type { IndiaDthBill, Plan } from "../../provider/index.ts";
import { AMOUNT, BILLED, type IndiaKit, PLAN, planKey, type State } from "./steps.ts";

/** The India flow's payment questions: the DTH subscriber's bill, then the plan or amount. */

/** A DTH subscriber's bill: who they are and what the pack costs, before anything is paid. */
export function billStep({ flow, t, deps, askDthId }: IndiaKit): Step<State> {
  return {
    name: "bill",
    // An edited number is a new subscriber: the bill is fetched again.
    holds: (st) => st.kind !== "dth" || st.billFor === st.number,
    run: async (st) => {
      if (st.kind !== "dth") {
        st.bill = undefined;
        st.billFor = undefined;
        return;
      }
      const operator = st.operator!;
      const askAgain = () => askDthId(t("india-ask-dth-id", { operator: operator.name }));
      // A DTH subscriber's bill first: who the subscriber is and what the monthly pack costs,
      // so a wrong id is caught before anything is paid. A refused id is asked again here.
      let number = st.number!;
      let asked = false;
      // Back into this step after it asked: its question again, not a silent fetch.
      if (st.billAsked && st.billFor === number) {
        number = await askAgain();
        asked = true;
      }
      for (;;) {
        const fetched = await flow.lookup(() =>
          deps.provider.indiaDthBill({
            operatorId: operator.id,
            connectionNo: number,
            circleId: st.circle!.value,
          }),
        );
        if (fetched.ok) {
          st.number = number;
          st.bill = fetched.value;
          st.billFor = number;
          st.billAsked = asked;
          await flow.reply(dthBillText(flow, operator, number, fetched.value));
          return;
        }
        await flow.reply(t("india-dth-bill-rejected", { reason: fetched.message }));
        number = await askAgain();
        asked = true;
      }
    },
  };
}

/** A plan from the list, the DTH bill's amount, or a typed amount (in ₹, within the bounds). */
export function planStep({ flow, t, deps }: IndiaKit): Step<State> {
  return {
    name: "plan",
    editKey: "flow-edit-plan",
    // A DTH id edited is another subscriber, with a bill of their own: the amount is asked again
    // (the one kept would be the other subscriber's monthly recharge).
    // Another operator or circle (an edited number in another series) has plans and bounds of its
    // own: the plan is asked again too.
    holds: (st) => st.planFor === planKey(st) && (st.kind !== "dth" || st.amountFor === st.billFor),
    run: async (st) => {
      const operator = st.operator!;
      const number = st.number!;
      const circleId = st.circle!.value;
      // The cap is in Nepal rupees: what is left of it is offered as the ₹ amount it pays for.
      const priced = { category: "india", operatorId: operator.id, region: "in" } as const;
      const operatorBounds = deps.catalog.amountBounds(operator)!;
      const bounds = await flow.spendable(operatorBounds, priced);
      const range = {
        min: formatMoney(bounds.minPaisa, { region: "in", locale: t.locale }),
        max: formatMoney(wordedMax(bounds), { region: "in", locale: t.locale }),
      };
      const parseAmount = (text: string) => flow.rule(validateAmount(text, bounds, "in"), "in");
      const listed = await flow.lookup(() =>
        deps.provider.indiaPlans({ operatorId: operator.id, circleId }),
      );
      // Plans outside the operator's bounds could never be executed; those within them but above
      // what today's cap leaves could, just not today. Neither is offered; the latter are said.
      const executable = listed.ok
        ? listed.value.filter((p) => checkAmount(p.amountPaisa, operatorBounds).ok)
        : [];
      const plans = executable.filter((p) => checkAmount(p.amountPaisa, bounds).ok);
      // The DTH bill's amount, when it states one the bounds allow, is the first choice.
      const due = st.bill?.billAmountPaisa;
      const billed = due && checkAmount(due, bounds).ok ? due : null;
      if (due && billed === null && checkAmount(due, operatorBounds).ok) {
        const amount = formatMoney(due, { region: "in", locale: t.locale });
        await flow.reply(t("india-dth-bill-over-limit", { amount, left: range.max }));
      }
      if (plans.length < executable.length) await flow.reply(t("india-plans-over-limit"));
      if (plans.length === 0 && billed === null) {
        if (!listed.ok) await flow.reply(t("india-plans-unavailable"));
        st.amountPaisa = await flow.askNarrowedAmount("india-ask-amount", bounds, "in", { number });
        st.plan = undefined;
        st.amountFor = st.billFor;
        st.planFor = planKey(st);
        return;
      }
      const planChoices = plans.map((p, i) => ({
        label: t("india-plan", {
          amount: formatMoney(p.amountPaisa, { region: "in", locale: t.locale }),
          details: planDetails(p),
        }),
        value: `${PLAN}${i}`,
      }));
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
      st.plan = picked.startsWith(PLAN) ? plans[Number(picked.slice(PLAN.length))] : undefined;
      if (picked === BILLED && billed !== null) st.amountPaisa = billed;
      else st.amountPaisa = st.plan ? st.plan.amountPaisa : Number(picked.slice(AMOUNT.length));
      st.amountFor = st.billFor;
      st.planFor = planKey(st);
    },
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
export function planDetails(p: Plan): string {
  return [p.validity, p.description].filter((s) => s && s.trim() !== "").join(" · ") || "-";
}
