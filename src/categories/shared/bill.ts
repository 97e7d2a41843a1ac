import type { OrderDraft } from "../../bot/deps.ts";
import {
  type Choice,
  type Flow,
  type LookupResult,
  type Parsed,
  type Priced,
  type Step,
  wordedMax,
} from "../../bot/flow/toolkit.ts";
import {
  NEPALI_MONTHS,
  type Operator,
  parseAmountToPaisa,
  validateAccountId,
  validateAmount,
} from "../../catalog/index.ts";
import { formatMoney } from "../../money.ts";
import { isFinal, mintReference } from "../../orders/index.ts";
import type { Bill } from "../../provider/index.ts";
import type { SavedEntry } from "../../saved/index.ts";
import { offeredOperators } from "./offered.ts";
import { type BillAccount, paysBillOf } from "./repeat.ts";
import { savedBillerStep } from "./saved.ts";

/**
 * Steps shared by the bill flows (water, electricity): operator, office, account ids, the bill
 * check under a reference of our own, showing the bill and asking what to pay. Not a flow itself.
 */

/** What every bill flow's state holds besides its own answers. */
export interface BillState {
  /**
   * A saved biller being paid again: the steps it answers ask nothing. Cleared at the bill check,
   * so an Edit or a refused check asks those answers again.
   */
  from?: SavedEntry;
  operator?: Operator;
  office?: Choice;
  /** The bill check, and the answers (`key`) it was made for. */
  checked?: CheckedBill & { key: string };
  amountPaisa?: number;
  /** The reference of the bill check the amount was chosen for. */
  amountFor?: string;
}

/**
 * The category's operator, then its office. With a single operator (the catalogue has one water
 * and one electricity operator) its question is skipped — a one-button question is a tap for
 * nothing — and the office prompt names it instead. When the office list cannot be had the flow
 * ends, saying so.
 */
export function operatorAndOfficeSteps<S extends BillState>(
  flow: Flow,
  category: string,
  askOperatorKey: string,
  askOffice: (operator: Operator) => string,
  officeColumns: number,
  /** Fills the flow's own answers (customer id, SC number, phone) from a saved biller. */
  fill: (st: S, entry: SavedEntry) => void,
): Step<S>[] {
  return [
    // Only billers of operators the provider still offers.
    savedBillerStep<S>(flow, category, () => offeredOperators(flow, category), fill),
    {
      name: "operator",
      run: async (st) => {
        if (st.from) return;
        const ops = await offeredOperators(flow, category);
        if (ops.length === 1 && ops[0]) {
          st.operator = ops[0];
          return;
        }
        const id = await flow.choose(
          flow.t(askOperatorKey),
          ops.map((o) => ({ label: o.name, value: String(o.id) })),
          { columns: 1 },
        );
        st.operator = flow.deps.catalog.operator(Number(id))!;
      },
    },
    {
      name: "office",
      run: async (st) => {
        const operator = st.operator!;
        const r = await flow.lookup(() => flow.deps.provider.officeCodes(operator.id));
        if (!r.ok || r.value.length === 0) {
          return flow.end(flow.t("bill-offices-failed", { reason: r.ok ? "-" : r.message }));
        }
        const offices: Choice[] = r.value.map((o) => ({ label: o.label, value: o.value }));
        // A saved biller's office, named from today's list; one no longer listed is asked for,
        // and then the rest of the biller's answers too.
        const saved = offices.find((o) => o.value === st.from?.biller?.officeCode);
        if (st.from && saved) {
          st.office = saved;
          return;
        }
        st.from = undefined;
        const code = await flow.choose(askOffice(operator), offices, {
          columns: officeColumns,
          pageSize: 8,
          searchable: true,
        });
        st.office = offices.find((o) => o.value === code)!;
      },
    },
  ];
}

/** Customer ids and SC numbers: letters, digits and a few separators. */
export function parseAccount(flow: Flow, text: string): Parsed<string> {
  const r = validateAccountId(text);
  if (!r.ok && r.error.code === "not_digits")
    return { ok: false, error: flow.t("bill-account-invalid") };
  return flow.rule(r);
}

interface CheckedBill {
  /** The reference the bill check used; the order is placed under it. */
  referenceNo: string;
  bill: Bill;
}

/** How far back the customer's orders are read for a payment of the same bill under way. */
const RECENT_ORDERS = 50;

/**
 * A bill check under a fresh reference of ours (a retry after a transient failure takes another),
 * or the customer's payment of the same bill still under way (`underWay`, its reference): the
 * utility shows the bill due until that payment succeeds, so paying the due shown would pay it
 * twice. The same rule as a repeat's (repeat.ts `sameBill`).
 */
function checkBill(
  flow: Flow,
  account: BillAccount,
  check: (referenceNo: string) => Promise<Bill>,
): Promise<LookupResult<CheckedBill | { underWay: string }>> {
  return flow.lookup(async () => {
    const recent = await flow.deps.orders.listByUser(flow.env.userId, RECENT_ORDERS);
    const underWay = recent.find((o) => paysBillOf(account)(o) && !isFinal(o.status));
    if (underWay) return { underWay: underWay.reference };
    const referenceNo = await mintReference(flow.deps.orders);
    return { referenceNo, bill: await check(referenceNo) };
  });
}

/** A provider month name ("Kartik", "Kartik 2081") in the user's language; other text unchanged. */
function localizeMonth(flow: Flow, text: string): string {
  const [first = "", ...rest] = text.trim().split(/\s+/);
  const i = NEPALI_MONTHS.findIndex((m) => m.toLowerCase() === first.toLowerCase());
  return i < 0 ? text : [flow.t(`bill-month-${i + 1}`), ...rest].join(" ");
}

/** The money columns of due rows (water `payments`, electricity `due_bills`), in display order. */
const MONEY_FIELDS: ReadonlyArray<[field: string, key: string, always: boolean]> = [
  ["previous_dues", "bill-field-previous", false],
  ["current_month_dues", "bill-field-current", true],
  ["bill_amount", "bill-field-amount", true],
  ["fine", "bill-field-fine", false],
  ["penalty", "bill-field-penalty", false],
  ["discount", "bill-field-discount", false],
  ["total_dues", "bill-field-total", true],
  ["payable_amount", "bill-field-payable", true],
];
const HEADING_FIELDS = ["month", "due_bill_of", "bill_date"];

function money(flow: Flow, value: string): string {
  const p = parseAmountToPaisa(value);
  return p.ok ? formatMoney(p.value, { locale: flow.t.locale }) : value;
}

function rowLine(flow: Flow, row: Record<string, string>): string {
  const headingField = HEADING_FIELDS.find((f) => row[f]);
  const heading = headingField ? localizeMonth(flow, row[headingField] ?? "") : "";
  const parts: string[] = [];
  for (const [field, key, always] of MONEY_FIELDS) {
    const value = row[field];
    if (value === undefined) continue;
    const p = parseAmountToPaisa(value);
    // Zero fines and discounts are noise; amounts and totals are always shown.
    if (!always && p.ok && p.value === 0) continue;
    parts.push(flow.t(key, { amount: money(flow, value) }));
  }
  // A row in a shape we do not know is shown as the provider wrote it.
  if (parts.length === 0) {
    for (const [k, v] of Object.entries(row))
      if (k !== headingField) parts.push(`${k.replace(/_/g, " ")}: ${v}`);
  }
  return flow.t("bill-row", { heading: heading || "-", details: parts.join(", ") });
}

/** The bill as the user reads it: title, address, one line per due row, the total. */
function billText(flow: Flow, title: string, bill: Bill): string {
  const lines = [title];
  const address = bill.dues.find((r) => r.address)?.address;
  if (address) lines.push(flow.t("bill-address", { address }));
  for (const row of bill.dues) lines.push(rowLine(flow, row));
  lines.push(
    bill.billAmountPaisa > 0
      ? flow.t("bill-total", {
          amount: formatMoney(bill.billAmountPaisa, { locale: flow.t.locale }),
        })
      : flow.t("bill-nothing-due"),
  );
  return lines.join("\n");
}

/** The amount question's extra button, and what picking it does instead of paying. */
export interface BillAmountOther {
  label: string;
  /** Picking it runs this (earlier) step again. */
  redo: string;
}

const OTHER = "other";

/**
 * Pay the due (button) or type another amount; with nothing due, an advance is asked for. With
 * `other`, its button is offered too and picking it answers null.
 */
async function askBillAmount(
  flow: Flow,
  bill: Bill,
  priced: Priced,
  other?: BillAmountOther,
): Promise<number | null> {
  // A bound against typos, not a documented limit (BILL_ADVANCE_MIN / _MAX), narrowed up front by
  // what the customer may still spend today (the price, fee included, must fit).
  const bounds = await flow.spendable(flow.deps.catalog.advanceBounds(), priced);
  // Offered in whole rupees; a typed amount is taken up to exactly what fits.
  const max = formatMoney(wordedMax(bounds), { locale: flow.t.locale });
  const typed = (text: string): Parsed<string> => {
    // In Nepal rupees: "₹500" is refused with a reason, not read as Rs 500.
    const r = flow.rule(validateAmount(text, bounds, "np"));
    return r.ok ? { ok: true, value: String(r.value) } : r;
  };
  const extra: Choice[] = other ? [{ label: other.label, value: OTHER }] : [];
  let prompt: string;
  const choices: Choice[] = [];
  if (bill.billAmountPaisa <= 0) prompt = flow.t("bill-ask-advance", { max });
  else {
    const due = formatMoney(bill.billAmountPaisa, { locale: flow.t.locale });
    prompt = flow.t("bill-ask-amount", { due, max });
    // A due whose price does not fit today's headroom cannot be paid whole today: no button for
    // it, and the reason (it is then above the exact bound, so above the `max` named too).
    if (await flow.fitsToday(bill.billAmountPaisa, priced))
      choices.push({ label: flow.t("bill-pay-due", { amount: due }), value: "due" });
    else prompt = `${flow.t("bill-due-over-limit", { left: max })}\n${prompt}`;
  }
  const picked = await flow.choose(prompt, [...choices, ...extra], { columns: 1, typed });
  if (picked === OTHER) return null;
  return picked === "due" ? bill.billAmountPaisa : Number(picked);
}

/** Confirmation lines every bill order shows: office, the flow's own lines, customer name, the due. */
function billConfirmLines(flow: Flow, office: Choice, bill: Bill, own: string[] = []): string[] {
  const lines = [flow.t("bill-confirm-office", { office: office.label }), ...own];
  if (bill.customerName) lines.push(flow.t("bill-confirm-customer", { name: bill.customerName }));
  lines.push(
    flow.t("bill-confirm-due", {
      amount: formatMoney(Math.max(0, bill.billAmountPaisa), { locale: flow.t.locale }),
    }),
  );
  return lines;
}

/**
 * The bill check (under a fresh reference), the bill shown under `title`, and the amount asked.
 * `key` names the answers a check was made for: an Edit that changes them checks again. A refused
 * check says why (`rejected`) and asks again from the step `redo`.
 */
export function billSteps<S extends BillState>(
  flow: Flow,
  opts: {
    /** The orders' category (what the amount's price, and so the daily cap, depends on). */
    category: string;
    key: (st: S) => string;
    /** The account the bill is of, besides operator and office (a payment of it under way stops). */
    account: (st: S) => { connectionNo: string; scNo?: string };
    check: (st: S, referenceNo: string) => Promise<Bill>;
    rejected: (reason: string) => string;
    title: (st: S, bill: Bill) => string;
    redo: string;
    /** An extra button at the amount question (water: another month than the one assumed). */
    other?: (st: S) => BillAmountOther | undefined;
  },
): Step<S>[] {
  return [
    {
      name: "bill",
      holds: (st) => st.checked?.key === opts.key(st),
      run: async (st) => {
        st.from = undefined;
        const account = {
          category: opts.category,
          operatorId: st.operator!.id,
          officeCode: st.office!.value,
          ...opts.account(st),
        };
        const checked = await checkBill(flow, account, (referenceNo) =>
          opts.check(st, referenceNo),
        );
        if (!checked.ok) {
          await flow.reply(opts.rejected(checked.message));
          return { redo: opts.redo };
        }
        if ("underWay" in checked.value) {
          return flow.end(flow.t("repeat-bill-under-way", { ref: checked.value.underWay }));
        }
        const { bill } = checked.value;
        await flow.reply(billText(flow, opts.title(st, bill), bill));
        st.checked = { ...checked.value, key: opts.key(st) };
      },
    },
    {
      name: "amount",
      editKey: "flow-edit-amount",
      holds: (st) => st.amountFor === st.checked?.referenceNo,
      run: async (st) => {
        const other = opts.other?.(st);
        const priced = {
          category: opts.category,
          operatorId: st.operator!.id,
          region: "np",
        } as const;
        const amount = await askBillAmount(flow, st.checked!.bill, priced, other);
        if (amount === null && other) return { redo: other.redo };
        st.amountPaisa = amount!;
        st.amountFor = st.checked!.referenceNo;
      },
    },
  ];
}

/**
 * A bill order under the bill check's reference, with its confirmation lines. `own` holds the
 * category's own details (besides office, customer name and due) and its confirmation lines.
 */
export function billOrder(
  flow: Flow,
  category: string,
  st: BillState,
  connectionNo: string,
  own: {
    details: Record<string, unknown>;
    lines: string[];
  },
): { draft: OrderDraft; lines: string[] } {
  const { bill, referenceNo } = st.checked!;
  const operator = st.operator!;
  const office = st.office!;
  // Checked at place by the category's part (src/categories/<id>/order.ts).
  const details = {
    officeCode: office.value,
    officeName: office.label,
    ...own.details,
    ...(bill.customerName ? { customerName: bill.customerName } : {}),
    billAmountPaisa: Math.max(0, bill.billAmountPaisa),
  };
  const draft = {
    category,
    region: "np",
    operatorId: operator.id,
    operatorTypeId: operator.operatorTypeId,
    operatorName: operator.name,
    connectionNo,
    amountPaisa: st.amountPaisa!,
    reference: referenceNo,
    details,
  } as OrderDraft;
  return { draft, lines: billConfirmLines(flow, office, bill, own.lines) };
}
