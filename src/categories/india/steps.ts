import type { BotDeps } from "../../bot/deps.ts";
import type { Choice, Flow, Step } from "../../bot/flow/toolkit.ts";
import {
  INDIA_OPERATORS,
  type IndiaOperatorKey,
  type Operator,
  validateIndiaMobile,
  validateIndiaNumber,
} from "../../catalog/index.ts";
import type { IndiaDthBill, Plan } from "../../provider/index.ts";
import type { Prefilled } from "../shared/prefill.ts";
import { savedNumberChoices } from "../shared/saved.ts";
import { circleKey, seriesOf } from "./series.ts";

/**
 * The India flow's questions before the payment (./flow.ts runs them in order): circles, kind,
 * number, operator, circle. Each step is a named builder over the flow's kit.
 */

/** What every step of the India flow uses. */
export interface IndiaKit {
  flow: Flow;
  t: Flow["t"];
  deps: BotDeps;
  /** The India operators offered when the flow started. */
  operators: Operator[];
  /** Asks a DTH subscriber id (10 digits, or the registered mobile number). */
  askDthId(prompt: string): Promise<string>;
  /** What a shortcut brought (a number typed alone): the number step takes it when it fits. */
  brought?: Prefilled;
}

const KINDS = ["prepaid", "postpaid", "dth"] as const;

/** Plan choices are "p<index>", a typed amount "a<paisa>": the two cannot be confused. */
export const PLAN = "p";
export const AMOUNT = "a";
/** The DTH bill's amount. */
export const BILLED = "b";
/** The suggested operator and circle, as one choice. */
const SUGGESTED = "s";

export interface State {
  circles?: Choice[];
  circle?: Choice;
  /** The circle was answered with the suggested operator (the circle step asks nothing). */
  circleSuggested?: boolean;
  kind?: string;
  operator?: Operator;
  /** The number the operator was answered for: an edited one in another series asks it again. */
  operatorFor?: string;
  /** The number (`operatorFor`) the circle was answered with: a re-asked operator asks it again. */
  circleFor?: string;
  number?: string;
  /** A DTH subscriber's bill, fetched for the number. */
  bill?: IndiaDthBill;
  /** The number the bill was fetched for (an edited number fetches it again). */
  billFor?: string;
  /** The bill step asked an id again (a refused one): Back lands on that question. */
  billAsked?: boolean;
  amountPaisa?: number;
  /** The subscriber (`billFor`) the amount was chosen for: another one's bill asks it again. */
  amountFor?: string;
  /** The operator and circle ("<id>/<circle>") the plan or amount was chosen among. */
  planFor?: string;
  plan?: Plan;
}

/** The operator and circle a plan or amount is chosen among (their plans, their bounds). */
export function planKey(st: State): string {
  return `${st.operator?.id}/${st.circle?.value}`;
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

/** The circles, listed once by the provider (ended when they cannot be). */
export function circlesStep({ flow, t, deps }: IndiaKit): Step<State> {
  return {
    name: "circles",
    run: async (st) => {
      const loaded = await flow.lookup(() => deps.provider.circles());
      if (!loaded.ok || loaded.value.length === 0) {
        return flow.end(t("india-circles-failed", { reason: loaded.ok ? "-" : loaded.message }));
      }
      st.circles = loaded.value.map((c) => ({ label: c.circleName, value: c.circleId }));
    },
  };
}

/** Prepaid, postpaid or DTH: the kinds the offered operators have. */
export function kindStep({ flow, t, operators }: IndiaKit): Step<State> {
  return {
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
  };
}

/** The number (a mobile, or a DTH subscriber id), with the saved ones of this kind as buttons. */
export function numberStep(kit: IndiaKit): Step<State> {
  const { flow, t, deps } = kit;
  return {
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
          valid(e.number).ok && deps.catalog.operator(e.biller?.operatorId ?? 0)?.india === kind,
      );
      // A number a shortcut brought (a +91 or Indian mobile typed alone): taken when it fits.
      const brought = valid(kit.brought?.take("number") ?? "");
      if (brought.ok) {
        st.number = brought.value;
        return;
      }
      st.number = await flow.ask(
        t(kind === "dth" ? "india-ask-dth-id-first" : "india-ask-number"),
        (text) => flow.rule(valid(text)),
        { choices },
      );
    },
  };
}

/**
 * The operator, the number series' suggestion (operator and circle) first when there is one. An
 * edited number is asked it again when its series suggests otherwise than the number before's did,
 * as if typed first (review s32-flows, 6: the first number's operator and circle were kept).
 */
export function operatorStep({ flow, t, deps, operators }: IndiaKit): Step<State> {
  const sameSuggestion = (st: State) => {
    const [was, now] = [st.operatorFor!, st.number!].map((n) =>
      suggestionFor(n, st.kind!, operators, st.circles!),
    );
    return was!.operator?.id === now!.operator?.id && was!.circle?.value === now!.circle?.value;
  };
  return {
    name: "operator",
    holds: (st) => st.kind === "dth" || st.operatorFor === st.number || sameSuggestion(st),
    run: async (st) => {
      const kind = st.kind!;
      const list = operators
        .filter((o) => o.india === kind)
        .map((o) => ({ label: o.name, value: String(o.id) }));
      const hint = kind === "dth" ? {} : suggestionFor(st.number!, kind, operators, st.circles!);
      if (!hint.operator) {
        const picked = await flow.choose(
          t("india-ask-operator", { kind: t(`india-kind-${kind}`) }),
          list,
          { columns: 2 },
        );
        st.operator = deps.catalog.operator(Number(picked))!;
        st.operatorFor = st.number;
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
        st.operatorFor = st.number;
        // The series named a circle the listing has: that is the circle's answer too.
        if (hint.circle) st.circle = hint.circle;
        st.circleSuggested = hint.circle !== undefined;
        return;
      }
      st.operator = deps.catalog.operator(Number(picked))!;
      st.operatorFor = st.number;
      st.circleSuggested = false;
    },
  };
}

/** The circle (paged, searchable), the series' circle first; skipped when the suggestion answered it. */
export function circleStep({ flow, t, operators }: IndiaKit): Step<State> {
  return {
    name: "circle",
    // Answered again after the operator was (an edited number in another series).
    holds: (st) => st.circleFor === st.operatorFor,
    run: async (st) => {
      if (st.circleSuggested) {
        st.circleFor = st.operatorFor;
        return;
      }
      const circles = st.circles!;
      // The series' circle first, when the number is in a known one (the customer may have
      // picked another operator: a number moves operators more often than circles).
      const hint = st.kind === "dth" ? {} : suggestionFor(st.number!, st.kind!, operators, circles);
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
      st.circleFor = st.operatorFor;
    },
  };
}
