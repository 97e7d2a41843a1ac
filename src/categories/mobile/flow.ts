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
import { prefilled } from "../shared/prefill.ts";
import { savedNumberChoices } from "../shared/saved.ts";

/**
 * Mobile top-up (NTC, operator family B): number -> operator (the number's series decides it) ->
 * amount.
 */

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
  return async function mobile(conversation: FlowConversation, ctx: FlowContext, given?: unknown) {
    const flow = await Flow.start(conversation, ctx, deps, "mobile");
    // A number (and amount) a shortcut brought: a bare number typed, a deep link.
    const pre = prefilled(given);
    const { t } = flow;
    const operators = await offeredOperators(flow, "mobile");

    /** The offered operators a number's series belongs to (NTC's lines have disjoint series). */
    const fitting = (number: string) => operators.filter((o) => fits(number, o));

    const parseNumber = (text: string): Parsed<string> => {
      const r = validateMobileNumber(text, ALL_NTC);
      if (!r.ok && r.error.code === "prefix" && detectOperator(text) === "ncell") {
        return { ok: false, error: t("mobile-ncell") };
      }
      if (r.ok && fitting(r.value).length === 0) {
        // Its line's operator is withdrawn (a catalogue refresh): said, and another number asked.
        const rule = deps.catalog.operators.find(
          (o) => o.category === "mobile" && fits(r.value, o),
        );
        return {
          ok: false,
          error: t("mobile-line-not-offered", { operator: rule?.name ?? "NTC", number: r.value }),
        };
      }
      return flow.rule(r);
    };

    /**
     * The operator: the number's series decides it (984 is NTC Prepaid, never offered Postpaid);
     * asked only when more than one offered operator takes the series, the detected one first.
     */
    const operatorOf = async (number: string): Promise<Operator> => {
      const candidates = fitting(number);
      if (candidates.length === 1) return candidates[0]!;
      const detected = detectNtcLine(number);
      const ordered = [...candidates].sort(
        (a, b) => Number(b.line === detected) - Number(a.line === detected),
      );
      const choices: Choice[] = ordered.map((o) => ({
        label: o.line === detected ? t("mobile-detected", { operator: o.name }) : o.name,
        value: String(o.id),
      }));
      const opId = await flow.choose(t("mobile-ask-operator", { number }), choices, { columns: 1 });
      return deps.catalog.operator(Number(opId))!;
    };

    const steps: Step<State>[] = [
      {
        name: "number",
        editKey: "flow-edit-number",
        run: async (st) => {
          const typed = pre.take("number");
          const r = typed === undefined ? undefined : parseNumber(typed);
          if (r?.ok) {
            st.number = r.value;
            return;
          }
          // A shortcut's number this flow refuses: the reason, then the question.
          const prompt = t("mobile-ask-number");
          st.number = await flow.ask(r ? `${r.error}\n\n${prompt}` : prompt, parseNumber, {
            choices: await savedNumberChoices(flow, "mobile"),
          });
        },
      },
      {
        name: "operator",
        // A changed number keeps its operator only when it still fits.
        holds: (st) => st.operator !== undefined && fits(st.number!, st.operator),
        run: async (st) => {
          st.operator = await operatorOf(st.number!);
        },
      },
      {
        name: "amount",
        editKey: "flow-edit-amount",
        holds: (st) =>
          st.amountPaisa !== undefined &&
          checkAmount(st.amountPaisa, deps.catalog.amountBounds(st.operator!)!).ok,
        run: async (st) => {
          // The cap counts the price, fee included: what is offered is what fits with it.
          const priced = { category: "mobile", operatorId: st.operator!.id, region: "np" } as const;
          const bounds = await flow.spendable(deps.catalog.amountBounds(st.operator!)!, priced);
          const amount = pre.take("amountPaisa");
          if (amount !== undefined && checkAmount(amount, bounds).ok) {
            st.amountPaisa = amount;
            return;
          }
          st.amountPaisa = await flow.askNarrowedAmount("mobile-ask-amount-for", bounds, "np", {
            number: st.number!,
            operator: st.operator!.name,
          });
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
