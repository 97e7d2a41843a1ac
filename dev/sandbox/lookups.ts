import { NEPALI_MONTHS, type Operator } from "../../src/catalog/index.ts";
import { rupeesToPaisa, toDecimalString, toRupeesNumber, toRupeesString } from "../../src/money.ts";
import {
  customerAddress,
  customerName,
  dataPacksFor,
  dthPackagesFor,
  internetPackagesFor,
  type SandboxPackage,
  setTopBoxNo,
  stableHash,
} from "./data.ts";

/**
 * Response bodies of the listing and bill endpoints, pure functions of the request. Test numbers:
 * a connection_no ending in 4040 is an unknown customer (listing and bill check refused), one ending
 * in 7777 has nothing due (bill_amount "0.00"), and so has a bill this account paid (`paid`).
 */

export const UNKNOWN_CUSTOMER_SUFFIX = "4040";
export const NOTHING_DUE_SUFFIX = "7777";

/** A whole percentage of integer paisa, rounded to the paisa (integers only, no 0.1 floats). */
const percentOf = (paisa: number, percent: number) => Math.round((paisa * percent) / 100);

/** Packages as the provider writes them: data packs and DTH with text amounts, internet numbers. */
export function packagesWire(op: Operator, packages: SandboxPackage[]) {
  return packages.map((p) => ({
    id: p.id,
    name: p.name,
    amount:
      op.category === "internet" ? toRupeesNumber(p.amountPaisa) : toRupeesString(p.amountPaisa),
  }));
}

export function packagesFor(op: Operator): SandboxPackage[] {
  if (op.category === "datapack") return dataPacksFor(op.id);
  if (op.category === "dth") return dthPackagesFor(op);
  if (op.category === "internet") return internetPackagesFor(op);
  return [];
}

export function dthListingWire(
  op: Operator,
  connectionNo: string,
  referenceRaw: string | number,
  sessionId: number,
  packages: SandboxPackage[],
) {
  const tier = (["Basic", "Silver", "Gold HD"] as const)[stableHash(connectionNo) % 3];
  return {
    operator_id: String(op.id),
    connection_no: connectionNo,
    reference_no: referenceRaw,
    customerinfo: [
      `Customer: ${customerName(connectionNo)}`,
      `STB No: ${setTopBoxNo(connectionNo)}`,
      `Current package: ${op.name} ${tier}`,
      "Status: Active",
    ].join(" || "),
    session_id: sessionId,
    packages: packagesWire(op, packages),
  };
}

/** Water bill: one to three unpaid months ending at month_id, older months with a 10 % fine. */
export function waterBill(
  connectionNo: string,
  referenceRaw: string | number,
  monthId: number,
  opts: { paid?: boolean } = {},
) {
  const h = stableHash(`water:${connectionNo}`);
  const months = connectionNo.endsWith(NOTHING_DUE_SUFFIX) || opts.paid ? 0 : (h % 3) + 1;
  const rows: Array<Record<string, string>> = [];
  let carried = 0;
  for (let i = months - 1; i >= 0; i--) {
    const m = ((monthId - 1 - i + 12) % 12) + 1;
    const current = 25_000 + ((h >>> (i * 5)) % 40_000) + ((h >>> 3) % 100);
    const fine = i > 0 ? percentOf(current, 10) : 0;
    const discount = i === 0 && months === 1 ? percentOf(current, 3) : 0;
    const total = carried + current + fine - discount;
    rows.push({
      month: NEPALI_MONTHS[m - 1] ?? String(m),
      address: customerAddress(connectionNo),
      mobile_number: `98${String(h % 100_000_000).padStart(8, "0")}`,
      current_month_dues: toDecimalString(current),
      discount: toDecimalString(discount),
      fine: toDecimalString(fine),
      previous_dues: toDecimalString(carried),
      total_dues: toDecimalString(total),
    });
    carried = total;
  }
  return {
    customer_name: customerName(connectionNo),
    connection_no: connectionNo,
    reference_no: referenceRaw,
    bill_amount: toDecimalString(carried),
    payments: rows,
  };
}

/** Electricity bill: zero to two unpaid bills, the older with a 5 % penalty. */
export function electricityBill(
  connectionNo: string,
  scNo: string,
  officeCode: string,
  referenceRaw: string | number,
  nowMs: number,
  opts: { paid?: boolean } = {},
) {
  const h = stableHash(`nea:${connectionNo}:${scNo}`);
  const count = connectionNo.endsWith(NOTHING_DUE_SUFFIX) || opts.paid ? 0 : (h % 2) + 1;
  // Bikram Sambat month, roughly: the BS year starts mid-April.
  const d = new Date(nowMs);
  const bsMonthIndex = (d.getUTCMonth() + 8) % 12;
  const bsYear = d.getUTCFullYear() + (d.getUTCMonth() >= 3 ? 57 : 56);
  const rows: Array<Record<string, string>> = [];
  let total = 0;
  for (let i = count; i >= 1; i--) {
    const idx = (bsMonthIndex - i + 12) % 12;
    const amount = 80_000 + ((h >>> (i * 4)) % 250_000);
    const penalty = i > 1 ? percentOf(amount, 5) : 0;
    const payable = amount + penalty;
    total += payable;
    rows.push({
      bill_date: `${bsYear}-${String(idx + 1).padStart(2, "0")}-15`,
      due_bill_of: `${NEPALI_MONTHS[idx]} ${bsYear}`,
      bill_amount: toDecimalString(amount),
      penalty: toDecimalString(penalty),
      payable_amount: toDecimalString(payable),
      status: "Unpaid",
    });
  }
  return {
    customer_name: customerName(connectionNo),
    connection_no: connectionNo,
    sc_no: scNo,
    office_code: officeCode,
    reference_no: referenceRaw,
    bill_amount: toDecimalString(total),
    due_bills: rows,
  };
}

export function indiaDthBill(op: Operator, connectionNo: string, nowMs: number) {
  const h = stableHash(`indth:${connectionNo}`);
  const monthly = [153, 299, 450][h % 3] ?? 299;
  const due = new Date(nowMs + ((h % 25) + 3) * 86_400_000).toISOString().slice(0, 10);
  return {
    customer_name: customerName(connectionNo),
    connection_no: connectionNo,
    operator: op.name,
    monthly_recharge: toDecimalString(rupeesToPaisa(monthly)),
    balance: toDecimalString((h % 20_000) + 0),
    due_date: due,
    status: "Active",
  };
}
