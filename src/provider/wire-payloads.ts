import { z } from "zod";
import { tryToPaisa } from "../money.ts";
import type {
  Circle,
  IndiaDthBill,
  Option,
  Package,
  Plan,
  StatusResult,
  WalletBalance,
} from "./domain.ts";
import { NEPAL_UTC_OFFSET_MINUTES, parseProviderTimestamp } from "./timestamp.ts";
import {
  isRecord,
  phpEmptyAsAbsent,
  textOf,
  wireId,
  wireOptionalPaisa,
  wireOptionalText,
  wirePaisa,
  wireStatus,
  wireText,
  wireTextRecord,
} from "./wire.ts";

/** The `data` member of each call's success envelope, read into the domain shapes (./domain.ts). */
// ---------------------------------------------------------------------------------------------
// Wire payloads (the `data` member of a success envelope)

const wirePackage = z
  .object({ id: wireId, name: wireText, amount: wirePaisa })
  .transform((p): Package => ({ id: p.id, name: p.name, amountPaisa: p.amount }));

/** Data-pack and internet listings: an array (tolerating an object that wraps `packages`). */
export const wirePackageList = z.union([
  z.array(wirePackage),
  z.object({ packages: z.array(wirePackage) }).transform((o) => o.packages),
]);

function splitCustomerInfo(info: string | string[] | null | undefined): string[] {
  const parts = Array.isArray(info) ? info : (info ?? "").split("||");
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

/** DTH listing: an object; missing echo fields are filled from the request by the client. */
export const wireDthListing = z
  .object({
    operator_id: wireId.optional(),
    connection_no: wireText.optional(),
    reference_no: wireId.optional(),
    customerinfo: z.union([z.string(), z.array(wireText), z.null()]).optional(),
    session_id: z.union([wireId, z.null()]).optional(),
    packages: z.array(wirePackage),
  })
  .transform((d) => ({
    operatorId: d.operator_id ?? null,
    connectionNo: d.connection_no || null,
    referenceNo: d.reference_no ?? null,
    customerInfo: splitCustomerInfo(d.customerinfo),
    sessionId: d.session_id ?? "",
    packages: d.packages,
  }));

function firstPresent(record: Record<string, unknown>, keys: readonly string[]): unknown {
  for (const key of keys) {
    const v = record[key];
    if (v !== undefined && v !== null && v !== "") return v;
  }
  return undefined;
}

/** `{value, label}` records; operator lookups may name them id/name (undocumented, tolerated). */
const wireOption = z.record(z.string(), z.unknown()).transform((r, ctx): Option => {
  const value = wireId.safeParse(
    firstPresent(r, ["value", "id", "operator_id", "operator_type_id"]),
  );
  const label = wireText.safeParse(firstPresent(r, ["label", "name", "title", "operator_name"]));
  if (!value.success || !label.success) {
    ctx.addIssue({ code: "custom", message: "record lacks value/label" });
    return z.NEVER;
  }
  return { value: value.data, label: label.data };
});
export const wireOptionList = z.array(wireOption);

/** Circles as `{circle_id, circle_name}` (spec) and/or `{value, label}` with a number value (sample). */
const wireCircle = z
  .object({
    circle_id: wireId.optional(),
    circle_name: wireText.optional(),
    value: wireId.optional(),
    label: wireText.optional(),
  })
  .transform((c, ctx): Circle => {
    const circleId = c.circle_id ?? c.value;
    const circleName = c.circle_name || c.label;
    if (circleId === undefined || !circleName) {
      ctx.addIssue({ code: "custom", message: "circle lacks an id or a name" });
      return z.NEVER;
    }
    return { circleId, circleName };
  });
export const wireCircleList = z.array(wireCircle);

/** Bill check; due rows are `payments` for water, named otherwise for electricity (tolerated). */
const DUE_ROW_KEYS = ["payments", "dues", "due_bills", "bills", "bill_details", "details"] as const;
export const wireBill = z
  .looseObject({
    // Echoes a PHP service may write as null or "" when it has none: absent, not a malformed
    // answer (that left the customer at Retry, unable to pay the bill at all).
    customer_name: wireOptionalText,
    connection_no: wireOptionalText,
    reference_no: z.union([wireId, z.literal(""), z.null()]).optional(),
    bill_amount: wireOptionalPaisa,
  })
  .transform((b, ctx) => {
    // An object with none of a bill's fields is not "nothing due": it says nothing about a bill.
    if (
      b.customer_name === null &&
      b.bill_amount === null &&
      DUE_ROW_KEYS.every((key) => b[key] === undefined || b[key] === null)
    ) {
      ctx.addIssue({ code: "custom", message: "no customer_name, bill_amount or due rows" });
      return z.NEVER;
    }
    let dues: Record<string, string>[] = [];
    for (const key of DUE_ROW_KEYS) {
      const rows = b[key];
      if (rows === undefined || rows === null) continue;
      const parsed = z.array(wireTextRecord).safeParse(rows);
      if (!parsed.success) {
        ctx.addIssue({ code: "custom", message: `${key} is not a list of rows`, path: [key] });
        return z.NEVER;
      }
      dues = parsed.data;
      break;
    }
    return {
      customerName: b.customer_name ?? "",
      connectionNo: b.connection_no,
      referenceNo: b.reference_no || null,
      billAmountPaisa: b.bill_amount ?? 0,
      dues,
    };
  });

/** Status data; zone-less timestamps are read at `utcOffsetMinutes`. */
export function wireStatusData(utcOffsetMinutes: number = NEPAL_UTC_OFFSET_MINUTES) {
  return z
    .object({
      status: wireStatus,
      transaction_id: wireId,
      order_id: wireId.optional(),
      reference_no: wireId.optional(),
      amount: wirePaisa,
      timestamp: z.unknown().optional(),
      details: phpEmptyAsAbsent(
        z.object({ connection_no: wireOptionalText, operator: wireOptionalText }).nullish(),
      ),
      connection_no: wireOptionalText,
      operator: wireOptionalText,
      package_name: wireOptionalText,
    })
    .transform((s, ctx): StatusResult => {
      const referenceNo = s.order_id ?? s.reference_no;
      if (referenceNo === undefined) {
        ctx.addIssue({ code: "custom", message: "status lacks order_id", path: ["order_id"] });
        return z.NEVER;
      }
      return {
        status: s.status,
        transactionId: s.transaction_id,
        referenceNo,
        amountPaisa: s.amount,
        timestampMs: parseProviderTimestamp(s.timestamp, utcOffsetMinutes),
        connectionNo: s.details?.connection_no ?? s.connection_no,
        operator: s.details?.operator ?? s.operator,
        packageName: s.package_name,
      };
    });
}

/** Wallet: `credits_available` (notes) or `credit_available` (spec), string or number. */
export const wireWallet = z
  .object({ credits_available: wirePaisa.optional(), credit_available: wirePaisa.optional() })
  .transform((w, ctx): WalletBalance => {
    const paisa = w.credits_available ?? w.credit_available;
    if (paisa === undefined) {
      ctx.addIssue({ code: "custom", message: "no credits_available/credit_available" });
      return z.NEVER;
    }
    return { creditAvailablePaisa: paisa };
  });

const PLAN_AMOUNT_KEYS = ["amount", "rs", "price", "recharge_amount", "amt", "mrp"] as const;
const PLAN_TEXT_KEYS = [
  "description",
  "desc",
  "name",
  "plan_name",
  "detail",
  "details",
  "benefit",
  "title",
] as const;
const PLAN_ID_KEYS = ["id", "plan_id", "plan_code"] as const;
const PLAN_VALIDITY_KEYS = ["validity", "valid_for", "duration"] as const;

function planFrom(record: Record<string, unknown>, group: string | null): Plan | null {
  const amount = tryToPaisa(firstPresent(record, PLAN_AMOUNT_KEYS));
  const description = firstPresent(record, PLAN_TEXT_KEYS);
  if (amount === null || description === undefined) return null;
  const id = firstPresent(record, PLAN_ID_KEYS);
  const validity = firstPresent(record, PLAN_VALIDITY_KEYS);
  const category = firstPresent(record, ["category", "type", "plan_type"]);
  return {
    id: id === undefined ? null : textOf(id),
    amountPaisa: amount,
    description: textOf(description).trim(),
    validity: validity === undefined ? null : textOf(validity),
    category: category === undefined ? group : textOf(category),
  };
}

/**
 * India plans (undocumented shape): an array of plan records, or an object grouping arrays by plan
 * category. Records without an amount and a description are skipped; a list where none is readable
 * is malformed.
 */
export const wirePlans = z
  .union([z.array(z.unknown()), z.record(z.string(), z.unknown())])
  .transform((data, ctx): Plan[] => {
    const groups: Array<[string | null, unknown[]]> = Array.isArray(data)
      ? [[null, data]]
      : Object.entries(data).flatMap(
          ([group, list]): Array<[string | null, unknown[]]> =>
            Array.isArray(list) ? [[group, list]] : [],
        );
    let seen = 0;
    const plans: Plan[] = [];
    for (const [group, list] of groups) {
      for (const item of list) {
        seen++;
        const plan = isRecord(item) ? planFrom(item, group) : null;
        if (plan) plans.push(plan);
      }
    }
    if (seen > 0 && plans.length === 0) {
      ctx.addIssue({ code: "custom", message: "no plan has an amount and a description" });
      return z.NEVER;
    }
    return plans;
  });

/** India DTH bill (undocumented shape): the record itself, or the first record of an array. */
export const wireIndiaDthBill = z
  .union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown())).min(1)])
  .transform((data): IndiaDthBill => {
    const record = (Array.isArray(data) ? data[0] : data) ?? {};
    const scalarEntries = Object.entries(record).filter(
      ([, v]) => v === null || typeof v !== "object",
    );
    const name = firstPresent(record, ["customer_name", "customerName", "name", "customer"]);
    const due = firstPresent(record, ["due_date", "dueDate", "next_recharge_date"]);
    return {
      customerName: name === undefined ? null : textOf(name),
      // A DTH "balance" is what is left on the account, not what is due: it was once read as the
      // amount to pay, offering Rs 12.50 against a Rs 353 monthly pack.
      billAmountPaisa: tryToPaisa(
        firstPresent(record, ["bill_amount", "due_amount", "amount", "monthly_recharge"]),
      ),
      balancePaisa: tryToPaisa(firstPresent(record, ["balance"])),
      dueDate: due === undefined ? null : textOf(due),
      details: Object.fromEntries(scalarEntries.map(([k, v]) => [k, textOf(v)])),
    };
  });

/** Execute success data (spec 4.1), before the client adds the request's reference and message. */
export const wireExecuteData = z
  .object({
    transaction_id: wireId,
    reference_no: wireId.optional(),
    amount: wirePaisa,
    status: wireStatus,
    credit_consumed: phpEmptyAsAbsent(
      z
        .object({
          service_charge: wireOptionalPaisa,
          instant_discount: wireOptionalPaisa,
          debit_amount: wireOptionalPaisa,
        })
        .nullish(),
    ),
    credit_available: wireOptionalPaisa,
    credits_available: wireOptionalPaisa,
    commission: wireOptionalPaisa,
  })
  .transform((d) => {
    const serviceCharge = d.credit_consumed?.service_charge ?? 0;
    const instantDiscount = d.credit_consumed?.instant_discount ?? 0;
    return {
      transactionId: d.transaction_id,
      referenceNo: d.reference_no ?? null,
      status: d.status,
      amountPaisa: d.amount,
      serviceChargePaisa: serviceCharge,
      instantDiscountPaisa: instantDiscount,
      // Spec 2.1: debit = amount + service charge - instant discount, when the field is missing.
      debitAmountPaisa:
        d.credit_consumed?.debit_amount ?? d.amount + serviceCharge - instantDiscount,
      // Without it the figure above is in the order's currency (₹ for India), not the wallet's.
      debitReported: d.credit_consumed?.debit_amount != null,
      creditAvailablePaisa: d.credit_available ?? d.credits_available,
      commissionPaisa: d.commission,
    };
  });
