import type { OrderDraft } from "../../bot/deps.ts";
import type { Choice, Flow, LookupResult, Parsed } from "../../bot/flow/toolkit.ts";
import {
  type Category,
  NEPALI_MONTHS,
  type Operator,
  parseAmountToPaisa,
  validateAccountId,
  validateAmount,
} from "../../catalog/index.ts";
import { formatMoney } from "../../money.ts";
import type { OrderOf } from "../../orders/model.ts";
import type { Bill } from "../../provider/index.ts";
import { offeredOperators } from "./offered.ts";

/**
 * Steps shared by the bill flows (water, electricity): operator, office, account ids, the bill
 * check under a reference of our own, showing the bill and asking what to pay. Not a flow itself.
 */

type BillCategory = "water" | "electricity";

/**
 * The category's operator. With a single one (the catalogue has one water and one electricity
 * operator) the question is skipped — a one-button question is a tap for nothing — and the next
 * prompt names the operator instead; with several the user chooses.
 */
export async function pickOperator(
  flow: Flow,
  category: Category,
  askKey: string,
): Promise<Operator | null> {
  const ops = await offeredOperators(flow, category);
  if (!ops) return null;
  if (ops.length === 1 && ops[0]) return ops[0];
  const id = await flow.choose(
    flow.t(askKey),
    ops.map((o) => ({ label: o.name, value: String(o.id) })),
    { columns: 1 },
  );
  return flow.deps.catalog.operator(Number(id))!;
}

/** The office (paged, searchable by typing part of its name); null when the list cannot be had. */
export async function pickOffice(
  flow: Flow,
  operator: Operator,
  prompt: string,
  columns: number,
): Promise<Choice | null> {
  const r = await flow.lookup(() => flow.deps.provider.officeCodes(operator.id));
  if (!r.ok || r.value.length === 0) {
    await flow.reply(flow.t("bill-offices-failed", { reason: r.ok ? "-" : r.message }));
    return null;
  }
  const offices: Choice[] = r.value.map((o) => ({ label: o.label, value: o.value }));
  const code = await flow.choose(prompt, offices, { columns, pageSize: 8, searchable: true });
  return offices.find((o) => o.value === code) ?? null;
}

/** The operator and then its office; null when the office list cannot be had. */
export async function pickOperatorAndOffice(
  flow: Flow,
  category: BillCategory,
  askOperatorKey: string,
  askOffice: (operator: Operator) => string,
  officeColumns: number,
): Promise<{ operator: Operator; office: Choice } | null> {
  const operator = await pickOperator(flow, category, askOperatorKey);
  if (!operator) return null;
  const office = await pickOffice(flow, operator, askOffice(operator), officeColumns);
  return office ? { operator, office } : null;
}

/** Customer ids and SC numbers: letters, digits and a few separators. */
export function parseAccount(flow: Flow, text: string): Parsed<string> {
  const r = validateAccountId(text);
  if (!r.ok && r.error.code === "not_digits")
    return { ok: false, error: flow.t("bill-account-invalid") };
  return flow.rule(r);
}

export interface CheckedBill {
  /** The reference the bill check used; the order is placed under it. */
  referenceNo: string;
  bill: Bill;
}

/** A bill check under a fresh reference of ours (a retry after a transient failure takes another). */
export function checkBill(
  flow: Flow,
  check: (referenceNo: string) => Promise<Bill>,
): Promise<LookupResult<CheckedBill>> {
  return flow.lookup(async () => {
    const referenceNo = await flow.deps.orders.nextReference();
    return { referenceNo, bill: await check(referenceNo) };
  });
}

/** A provider month name ("Kartik", "Kartik 2081") in the user's language; other text unchanged. */
export function localizeMonth(flow: Flow, text: string): string {
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
export function billText(flow: Flow, title: string, bill: Bill): string {
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

/** Pay the due (button) or type another amount; with nothing due, an advance is asked for. */
export async function askBillAmount(flow: Flow, bill: Bill): Promise<number> {
  // A bound against typos, not a documented limit (BILL_ADVANCE_MIN / _MAX); the cap still applies.
  const bounds = flow.deps.catalog.advanceBounds();
  const max = formatMoney(bounds.maxPaisa, { locale: flow.t.locale });
  const parse = (text: string) => flow.rule(validateAmount(text, bounds));
  if (bill.billAmountPaisa <= 0) return flow.ask(flow.t("bill-ask-advance", { max }), parse);
  const due = formatMoney(bill.billAmountPaisa, { locale: flow.t.locale });
  const picked = await flow.choose(
    flow.t("bill-ask-amount", { due, max }),
    [{ label: flow.t("bill-pay-due", { amount: due }), value: "due" }],
    {
      columns: 1,
      typed: (text) => {
        const r = parse(text);
        return r.ok ? { ok: true, value: String(r.value) } : r;
      },
    },
  );
  return picked === "due" ? bill.billAmountPaisa : Number(picked);
}

/** Confirmation lines every bill order shows: office, the flow's own lines, customer name, the due. */
export function billConfirmLines(
  flow: Flow,
  office: Choice,
  bill: Bill,
  own: string[] = [],
): string[] {
  const lines = [flow.t("bill-confirm-office", { office: office.label }), ...own];
  if (bill.customerName) lines.push(flow.t("bill-confirm-customer", { name: bill.customerName }));
  lines.push(
    flow.t("bill-confirm-due", {
      amount: formatMoney(Math.max(0, bill.billAmountPaisa), { locale: flow.t.locale }),
    }),
  );
  return lines;
}

export interface PaidBill extends CheckedBill {
  /** What the user chose to pay: the due or a typed amount. */
  amountPaisa: number;
}

/**
 * The bill check, the bill shown under `title`, and the amount asked; null after saying why the
 * check was refused (`rejected`), when the flow asks its questions again.
 */
export async function checkShowAndAsk(
  flow: Flow,
  check: (referenceNo: string) => Promise<Bill>,
  rejected: (reason: string) => string,
  title: (bill: Bill) => string,
): Promise<PaidBill | null> {
  const checked = await checkBill(flow, check);
  if (!checked.ok) {
    await flow.reply(rejected(checked.message));
    return null;
  }
  const { referenceNo, bill } = checked.value;
  await flow.reply(billText(flow, title(bill), bill));
  return { referenceNo, bill, amountPaisa: await askBillAmount(flow, bill) };
}

/**
 * Confirms and places a bill order under the bill check's reference. `own` holds the category's
 * own details (besides office, customer name and due) and its confirmation lines.
 */
export async function placeBill<C extends BillCategory>(
  flow: Flow,
  category: C,
  operator: Operator,
  office: Choice,
  connectionNo: string,
  paid: PaidBill,
  own: {
    details: Omit<OrderOf<C>["details"], "officeCode" | "customerName" | "billAmountPaisa">;
    lines: string[];
  },
): Promise<void> {
  const { bill } = paid;
  // The generic category hides the category/details pairing from the type system, hence the casts.
  const details = {
    officeCode: office.value,
    ...own.details,
    ...(bill.customerName ? { customerName: bill.customerName } : {}),
    billAmountPaisa: Math.max(0, bill.billAmountPaisa),
  } as OrderOf<C>["details"];
  const draft = {
    category,
    region: "np",
    operatorId: operator.id,
    operatorTypeId: operator.operatorTypeId,
    operatorName: operator.name,
    connectionNo,
    amountPaisa: paid.amountPaisa,
    referenceNo: paid.referenceNo,
    details,
  } as OrderDraft;
  await flow.confirmAndPlace(draft, billConfirmLines(flow, office, bill, own.lines));
}
