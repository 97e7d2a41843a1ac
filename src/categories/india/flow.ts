import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { type Choice, Flow, type Parsed, type Step } from "../../bot/flow/toolkit.ts";
import {
  checkAmount,
  INDIA_OPERATORS,
  type IndiaOperatorKey,
  type Operator,
  validateAmount,
  validateIndiaMobile,
  validateIndiaNumber,
} from "../../catalog/index.ts";
import { formatMoney } from "../../money.ts";
import type { IndiaDthBill, Plan } from "../../provider/index.ts";
import { offeredOperators } from "../shared/offered.ts";
import { savedNumberChoices } from "../shared/saved.ts";
import { circleKey, seriesOf } from "./series.ts";

/**
 * India recharge: kind (prepaid / postpaid / DTH) -> number or DTH subscriber id -> operator ->
 * circle (paged, searchable) -> a plan from the list or a typed amount -> confirm. Amounts in ₹.
 * The number comes before the operator so a mobile number's series can suggest its operator and
 * circle (series.ts): one button "Airtel Prepaid · Delhi NCR (suggested)" first, then the full
 * list; picking it answers the circle too, picking another operator asks the circle with the
 * suggested one first. Only a suggestion: numbers move between operators.
 */

const KINDS = ["prepaid", "postpaid", "dth"] as const;

/** Plan choices are "p<index>", a typed amount "a<paisa>": the two cannot be confused. */
const PLAN = "p";
const AMOUNT = "a";
/** The DTH bill's amount. */
const BILLED = "b";
/** The suggested operator and circle, as one choice. */
const SUGGESTED = "s";

interface State {
  circles?: Choice[];
  circle?: Choice;
  /** The circle was answered with the suggested operator (the circle step asks nothing). */
  circleSuggested?: boolean;
  kind?: string;
  operator?: Operator;
  number?: string;
  /** A DTH subscriber's bill, fetched for the number. */
  bill?: IndiaDthBill;
  /** The number the bill was fetched for (an edited number fetches it again). */
  billFor?: string;
  /** The bill step asked an id again (a refused one): Back lands on that question. */
  billAsked?: boolean;
  amountPaisa?: number;
  plan?: Plan;
}

/** What a number's series suggests, among what is offered: the operator of this kind, the circle. */
function suggestionFor(
  number: string,
  kind: string,
  operators: Operator[],
  circles: Choice[],
): { operator?: Operator; circle?: Choice } {
  const guess = seriesOf(number);
  if (!guess) return {};
  const key = `${guess.brand}-${kind}` as IndiaOperatorKey;
  const name = INDIA_OPERATORS[key]?.[1];
  const operator = operators.find((o) => o.india === kind && o.name === name);
  const circle = circles.find((c) => circleKey(c.label) === circleKey(guess.circle));
  return { ...(operator ? { operator } : {}), ...(circle ? { circle } : {}) };
}

export function indiaConversation(deps: BotDeps) {
  return async function india(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps, "india");
    const { t } = flow;
    const operators = await offeredOperators(flow, "india");

    /** A DTH subscriber id (10 digits, or the registered mobile number). */
    const askDthId = (prompt: string) =>
      flow.ask(prompt, (text) => flow.rule(validateIndiaNumber(text)));

    const steps: Step<State>[] = [
      {
        name: "circles",
        run: async (st) => {
          const loaded = await flow.lookup(() => deps.provider.circles());
          if (!loaded.ok || loaded.value.length === 0) {
            return flow.end(
              t("india-circles-failed", { reason: loaded.ok ? "-" : loaded.message }),
            );
          }
          st.circles = loaded.value.map((c) => ({ label: c.circleName, value: c.circleId }));
        },
      },
      {
        name: "kind",
        run: async (st) => {
          st.kind = await flow.choose(
            t("india-ask-kind"),
            KINDS.filter((k) => operators.some((o) => o.india === k)).map((k) => ({
              label: t(`india-kind-${k}`),
              value: k,
            })),
            { columns: 1 },
          );
        },
      },
      {
        name: "number",
        editKey: "flow-edit-number",
        run: async (st) => {
          // The sandbox (like the operators' recharge APIs) takes DTH subscribers by a 10-digit id or
          // the registered mobile number, so DTH takes any 10 digits; a mobile must also start with 6 to 9.
          const kind = st.kind!;
          const valid = (text: string) =>
            kind === "dth" ? validateIndiaNumber(text) : validateIndiaMobile(text);
          // Saved India numbers of this kind (a DTH id is not offered for a mobile, nor the other way).
          const choices = await savedNumberChoices(
            flow,
            "india",
            (e) =>
              valid(e.number).ok &&
              deps.catalog.operator(e.biller?.operatorId ?? 0)?.india === kind,
          );
          st.number = await flow.ask(
            t(kind === "dth" ? "india-ask-dth-id-first" : "india-ask-number"),
            (text) => flow.rule(valid(text)),
            { choices },
          );
        },
      },
      {
        name: "operator",
        run: async (st) => {
          const kind = st.kind!;
          const list = operators
            .filter((o) => o.india === kind)
            .map((o) => ({ label: o.name, value: String(o.id) }));
          const hint =
            kind === "dth" ? {} : suggestionFor(st.number!, kind, operators, st.circles!);
          if (!hint.operator) {
            const picked = await flow.choose(
              t("india-ask-operator", { kind: t(`india-kind-${kind}`) }),
              list,
              { columns: 2 },
            );
            st.operator = deps.catalog.operator(Number(picked))!;
            st.circleSuggested = false;
            return;
          }
          const suggestion = [hint.operator.name, ...(hint.circle ? [hint.circle.label] : [])].join(
            " · ",
          );
          const picked = await flow.choose(
            t("india-ask-operator-suggested", { number: st.number!, suggestion }),
            [{ label: t("india-suggested", { suggestion }), value: SUGGESTED }, ...list],
            { columns: 2 },
          );
          if (picked === SUGGESTED) {
            st.operator = hint.operator;
            // The series named a circle the listing has: that is the circle's answer too.
            if (hint.circle) st.circle = hint.circle;
            st.circleSuggested = hint.circle !== undefined;
            return;
          }
          st.operator = deps.catalog.operator(Number(picked))!;
          st.circleSuggested = false;
        },
      },
      {
        name: "circle",
        run: async (st) => {
          if (st.circleSuggested) return;
          const circles = st.circles!;
          // The series' circle first, when the number is in a known one (the customer may have
          // picked another operator: a number moves operators more often than circles).
          const hint =
            st.kind === "dth" ? {} : suggestionFor(st.number!, st.kind!, operators, circles);
          const ordered = hint.circle
            ? [
                {
                  label: t("india-suggested", { suggestion: hint.circle.label }),
                  value: hint.circle.value,
                },
                ...circles.filter((c) => c.value !== hint.circle!.value),
              ]
            : circles;
          const circleId = await flow.choose(t("india-ask-circle"), ordered, {
            columns: 2,
            pageSize: 8,
            searchable: true,
          });
          st.circle = circles.find((c) => c.value === circleId)!;
        },
      },
      {
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
      },
      {
        name: "plan",
        editKey: "flow-edit-plan",
        run: async (st) => {
          const operator = st.operator!;
          const number = st.number!;
          const circleId = st.circle!.value;
          const bounds = await flow.spendable(deps.catalog.amountBounds(operator)!);
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
            st.bill?.billAmountPaisa && checkAmount(st.bill.billAmountPaisa, bounds).ok
              ? st.bill.billAmountPaisa
              : null;
          if (plans.length === 0 && billed === null) {
            if (!listed.ok) await flow.reply(t("india-plans-unavailable"));
            st.amountPaisa = await flow.askAmount("india-ask-amount", bounds, {
              region: "in",
              params: { number },
            });
            st.plan = undefined;
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
        },
      },
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
