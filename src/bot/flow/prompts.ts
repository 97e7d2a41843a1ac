import { InlineKeyboard } from "grammy";
import {
  type AmountBounds,
  checkAmount,
  type RuleError,
  type RuleResult,
  validateAmount,
} from "../../catalog/index.ts";
import { formatMoney, rupeesToPaisa, toRupeesString } from "../../money.ts";
import type { FlowContext } from "../context.ts";
import type { Translate } from "../i18n.ts";
import { askUntil, CB, type FlowScope, type Outcome } from "./prompt-loop.ts";

/**
 * The question widgets of a flow, each one a `Question` for the shared loop in prompt-loop.ts:
 * a typed answer, an amount and a choice (paged, searchable); lookup.ts adds a provider lookup with
 * Retry. Every answer is validated and re-asked with a reason; nothing answered earlier is lost.
 */

export interface Choice {
  label: string;
  value: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

import type { Region } from "../../catalog/index.ts";

export type { Region };

export type AskOptions = { choices?: Choice[]; columns?: number };
export type AmountOptions = {
  region?: Region;
  params?: Record<string, string | number>;
  /** The prompt names the largest amount as `wordedMax` does (an order's, narrowed by the cap). */
  wholeMax?: boolean;
};
export type ChooseOptions = {
  pageSize?: number;
  columns?: number;
  searchable?: boolean;
  typed?: (text: string) => Parsed<string>;
};

const MAX_TEXT_ANSWER = 200;
/** Quick-answer buttons for amount questions, in rupees (only those within the bounds are shown). */
const QUICK_AMOUNTS = [100, 200, 500, 1000];

/** A catalogue rule's refusal in the flow's language; `region` picks the currency shown (₹ for India). */
export function ruleError(t: Translate, e: RuleError, region: Region = "np"): string {
  switch (e.code) {
    case "length":
      return t("err-length", { expected: e.expected, actual: e.actual });
    case "trunk_zero":
      return t("err-trunk-zero", { expected: e.expected, actual: e.actual });
    case "phone_mobile_length":
    case "phone_landline_length":
      return t(`err-${e.code.replace(/_/g, "-")}`, { actual: e.actual });
    case "prefix":
      return t("err-prefix", { allowed: e.allowed.join(", ") });
    case "amount_below":
      return t("err-amount-below", { min: formatMoney(e.minPaisa, { region, locale: t.locale }) });
    case "amount_above":
      return t("err-amount-above", { max: formatMoney(e.maxPaisa, { region, locale: t.locale }) });
    case "too_long":
      return t("err-too-long", { max: e.max });
    case "amount_currency":
      // The sign typed is the other country's: the question asks in this one's rupees.
      return t("err-amount-currency", { asked: e.typed === "np" ? "in" : "np" });
    default:
      return t(`err-${e.code.replace(/_/g, "-")}`);
  }
}

export function ruleAnswer<T>(t: Translate, r: RuleResult<T>, region: Region = "np"): Parsed<T> {
  return r.ok ? r : { ok: false, error: ruleError(t, r.error, region) };
}

function choiceKeyboard(choices: Choice[], columns: number): InlineKeyboard {
  const kb = new InlineKeyboard();
  choices.forEach((c, i) => {
    if (i > 0 && i % columns === 0) kb.row();
    kb.text(c.label, CB.value.build(c.value));
  });
  return kb;
}

/** A refused answer: its reason, then "try again", under the question's buttons. */
function retryWith<R>(s: FlowScope, error: string): Outcome<R> {
  return { kind: "resend", text: `${error}\n${s.t("common-try-again")}` };
}

const sendText = <R>(s: FlowScope): Outcome<R> => ({
  kind: "resend",
  text: s.t("common-send-text"),
});

/** A typed answer (optionally with shortcut buttons) until `parse` accepts it. */
export function ask<T>(
  s: FlowScope,
  prompt: string,
  parse: (text: string) => Parsed<T>,
  opts: AskOptions = {},
): Promise<T> {
  const choices = (opts.choices ?? []).filter((c) => CB.value.fits(c.value));
  const answer = (input: string): Outcome<T> => {
    const r: Parsed<T> =
      input.length > MAX_TEXT_ANSWER
        ? { ok: false, error: s.t("err-too-long", { max: MAX_TEXT_ANSWER }) }
        : parse(input);
    return r.ok ? { kind: "done", value: r.value } : retryWith(s, r.error);
  };
  return askUntil(s, {
    text: prompt,
    buttons: () => choiceKeyboard(choices, opts.columns ?? 1),
    onButton: (data) => {
      const value = CB.value.parse(data);
      return value === null ? { kind: "stay" } : answer(value);
    },
    onMessage: (u) => (typeof u.message?.text === "string" ? answer(u.message.text) : sendText(s)),
  });
}

/**
 * The largest amount of `bounds` as an offer words it: rounded down to the whole rupee (what is
 * left of the daily cap often has paisa, "up to Rs 394.63" reads oddly), never above what fits;
 * exact when the whole rupee is below the least amount. A refusal names the exact bound.
 */
export function wordedMax(bounds: AmountBounds): number {
  const whole = bounds.maxPaisa - (bounds.maxPaisa % 100);
  return whole >= bounds.minPaisa ? whole : bounds.maxPaisa;
}

/** An amount within `bounds`, typed or from quick buttons; the prompt gets `min` and `max`. */
export function askAmount(
  s: FlowScope,
  promptKey: string,
  bounds: AmountBounds,
  opts: AmountOptions = {},
): Promise<number> {
  const region = opts.region ?? "np";
  const prompt = s.t(promptKey, {
    ...opts.params,
    min: formatMoney(bounds.minPaisa, { region, locale: s.t.locale }),
    max: formatMoney(opts.wholeMax ? wordedMax(bounds) : bounds.maxPaisa, {
      region,
      locale: s.t.locale,
    }),
  });
  const choices = QUICK_AMOUNTS.map(rupeesToPaisa)
    .filter((p) => checkAmount(p, bounds).ok)
    .map((p) => ({
      label: formatMoney(p, { region, locale: s.t.locale }),
      value: toRupeesString(p),
    }));
  return ask(s, prompt, (text) => ruleAnswer(s.t, validateAmount(text, bounds, region), region), {
    choices,
    columns: 4,
  });
}

/**
 * A finite choice as buttons, paged when long; when `searchable`, typed text filters the choices
 * by name. `typed` lets a flow accept a typed answer as well (e.g. an amount).
 */
export function choose(
  s: FlowScope,
  prompt: string,
  all: Choice[],
  opts: ChooseOptions = {},
): Promise<string> {
  const pageSize = opts.pageSize ?? 8;
  const columns = opts.columns ?? 2;
  let shown = all;
  let page = 0;
  const pages = () => Math.max(1, Math.ceil(shown.length / pageSize));
  const buttons = () => {
    const kb = choiceKeyboard(shown.slice(page * pageSize, (page + 1) * pageSize), columns);
    if (pages() > 1) {
      kb.row()
        .text(s.t("common-prev"), CB.page.build((page + pages() - 1) % pages()))
        .text(s.t("common-page", { page: page + 1, pages: pages() }), CB.page.build(page))
        .text(s.t("common-next"), CB.page.build((page + 1) % pages()));
    }
    return kb;
  };
  const onButton = (data: string): Outcome<string> => {
    const target = CB.page.parse(data);
    if (target !== null) {
      if (target >= pages() || target === page) {
        return { kind: "stay" };
      }
      page = target;
      return { kind: "edit" };
    }
    const value = CB.value.parse(data);
    if (value !== null && all.some((c) => c.value === value)) return { kind: "done", value };
    return { kind: "stay", toast: s.t("common-button-expired") };
  };
  const search = (text: string): Outcome<string> => {
    const query = text.trim().slice(0, 50);
    const needle = query.toLowerCase();
    const found = all.filter((c) => c.label.toLowerCase().includes(needle));
    if (found.length === 1 && found[0]) return { kind: "done", value: found[0].value };
    if (found.length === 0) return { kind: "resend", text: s.t("common-search-none", { query }) };
    shown = found;
    page = 0;
    return { kind: "resend", text: s.t("common-search-results", { query }) };
  };
  const onMessage = (u: FlowContext): Outcome<string> => {
    const text = u.message?.text;
    if (typeof text !== "string") return sendText(s);
    if (opts.typed) {
      const r = opts.typed(text);
      if (r.ok) return { kind: "done", value: r.value };
      if (!opts.searchable) return retryWith(s, r.error);
    }
    if (opts.searchable) return search(text);
    return { kind: "resend", text: s.t("common-use-buttons") };
  };
  const hint = opts.searchable ? `\n${s.t("common-search-hint")}` : "";
  return askUntil(s, { text: prompt + hint, buttons, onButton, onMessage });
}
