import { z } from "zod";
import { tryToPaisa } from "../money.ts";
import { NEPAL_UTC_OFFSET_MINUTES, parseProviderTimestamp } from "./timestamp.ts";

/**
 * Two layers. The domain schemas (`packageSchema`, `billSchema`, ...) describe what the client hands
 * to the rest of the program: ids as strings, money as integer paisa, camelCase. The `wire*` schemas
 * read the provider's JSON, tolerating the documented variations (numbers as strings, ids as strings
 * or numbers, credits_available vs credit_available, two error shapes, two timestamp formats), and
 * transform it into the domain shapes.
 */

// ---------------------------------------------------------------------------------------------
// Domain shapes

export const packageSchema = z.object({
  id: z.string(),
  name: z.string(),
  amountPaisa: z.number().int(),
});
export type Package = z.infer<typeof packageSchema>;

export const dthListingSchema = z.object({
  operatorId: z.string(),
  connectionNo: z.string(),
  /** The reference the DTH execute must carry (spec 4.1). */
  referenceNo: z.string(),
  /** `customerinfo` split on " || " (subscriber description, set-top-box number, ...). */
  customerInfo: z.array(z.string()),
  sessionId: z.string(),
  packages: z.array(packageSchema),
});
export type DthListing = z.infer<typeof dthListingSchema>;

/** Office codes, operators and operator types: the `{value, label}` records of the lookups. */
export const optionSchema = z.object({ value: z.string(), label: z.string() });
export type Option = z.infer<typeof optionSchema>;
export type OfficeCode = Option;

export const circleSchema = z.object({ circleId: z.string(), circleName: z.string() });
export type Circle = z.infer<typeof circleSchema>;

export const billSchema = z.object({
  customerName: z.string(),
  connectionNo: z.string(),
  referenceNo: z.string(),
  /** 0 when the provider reports no bill (an advance may then be paid). */
  billAmountPaisa: z.number().int(),
  /** Month/due rows exactly as the provider labels them, every value as text. */
  dues: z.array(z.record(z.string(), z.string())),
});
export type Bill = z.infer<typeof billSchema>;

export const statusResultSchema = z.object({
  /** Provider's status, lowercased: "success", "failed", "pending", "queued", ... (open set). */
  status: z.string(),
  transactionId: z.string(),
  referenceNo: z.string(),
  amountPaisa: z.number().int(),
  /** Epoch ms; null when the provider's timestamp cannot be read. */
  timestampMs: z.number().int().nullable(),
  connectionNo: z.string().nullable(),
  operator: z.string().nullable(),
  packageName: z.string().nullable(),
});
export type StatusResult = z.infer<typeof statusResultSchema>;

export const walletBalanceSchema = z.object({ creditAvailablePaisa: z.number().int() });
export type WalletBalance = z.infer<typeof walletBalanceSchema>;

export const planSchema = z.object({
  id: z.string().nullable(),
  amountPaisa: z.number().int(),
  description: z.string(),
  validity: z.string().nullable(),
  /** The group the provider filed the plan under, when it groups them. */
  category: z.string().nullable(),
});
export type Plan = z.infer<typeof planSchema>;

export const indiaDthBillSchema = z.object({
  customerName: z.string().nullable(),
  /** What a recharge should pay (the bill, or the monthly pack price); null when not stated. */
  billAmountPaisa: z.number().int().nullable(),
  /** What is left on the subscriber's account: never the amount to pay. */
  balancePaisa: z.number().int().nullable(),
  dueDate: z.string().nullable(),
  /** Every scalar field of the provider's record, as text (the shape is undocumented). */
  details: z.record(z.string(), z.string()),
});
export type IndiaDthBill = z.infer<typeof indiaDthBillSchema>;

export const executeAcceptedSchema = z.object({
  kind: z.literal("accepted"),
  referenceNo: z.string(),
  transactionId: z.string(),
  /** Provider's status, lowercased ("success", "queued", "pending", "failed", ...). */
  status: z.string(),
  message: z.string(),
  amountPaisa: z.number().int(),
  serviceChargePaisa: z.number().int(),
  instantDiscountPaisa: z.number().int(),
  debitAmountPaisa: z.number().int(),
  /** Wallet balance after the transaction; null when the response omits it. */
  creditAvailablePaisa: z.number().int().nullable(),
  commissionPaisa: z.number().int().optional(),
});
export const executeRejectedSchema = z.object({
  kind: z.literal("rejected"),
  referenceNo: z.string(),
  httpStatus: z.number().int(),
  message: z.string(),
  rateLimited: z.boolean(),
});
export const executeUnknownSchema = z.object({
  kind: z.literal("unknown"),
  referenceNo: z.string(),
  reason: z.enum(["timeout", "network", "server_error", "malformed"]),
  detail: z.string(),
});
/**
 * accepted: the provider took the order (its status may still be pending or even failed);
 * rejected: the provider definitely did not execute it;
 * unknown: it may or may not have executed: reconcile by status query, never re-send blindly.
 */
export const executeResultSchema = z.discriminatedUnion("kind", [
  executeAcceptedSchema,
  executeRejectedSchema,
  executeUnknownSchema,
]);
export type ExecuteAccepted = z.infer<typeof executeAcceptedSchema>;
export type ExecuteRejected = z.infer<typeof executeRejectedSchema>;
export type ExecuteUnknown = z.infer<typeof executeUnknownSchema>;
export type ExecuteResult = z.infer<typeof executeResultSchema>;
export type UnknownOutcomeReason = ExecuteUnknown["reason"];

// ---------------------------------------------------------------------------------------------
// Wire primitives

/** An identifier: string or number on the wire, always a non-empty string here. */
export const wireId = z
  .union([z.string(), z.number().finite()])
  .transform((v) => (typeof v === "number" ? String(v) : v.trim()))
  .pipe(z.string().min(1));

/** Text that some pages send as a number. */
export const wireText = z
  .union([z.string(), z.number().finite()])
  .transform((v) => (typeof v === "number" ? String(v) : v.trim()));

/** A rupee amount (number, or decimal text like "533.44") as integer paisa. */
export const wirePaisa = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const paisa = tryToPaisa(v);
  if (paisa === null) {
    ctx.addIssue({ code: "custom", message: "not a decimal amount" });
    return z.NEVER;
  }
  return paisa;
});

/** Optional amount: absent, null or "" read as null. */
const wireOptionalPaisa = z
  .union([wirePaisa, z.literal(""), z.null()])
  .optional()
  .transform((v) => (typeof v === "number" ? v : null));

const wireOptionalText = z
  .union([wireText, z.null()])
  .optional()
  .transform((v) => (typeof v === "string" && v !== "" ? v : null));

const wireStatus = z
  .string()
  .trim()
  .min(1)
  .transform((s) => s.toLowerCase());

function textOf(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** A record whose values are turned into text (bill rows, undocumented records). */
const wireTextRecord = z
  .record(z.string(), z.unknown())
  .transform((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, textOf(v)])));

// ---------------------------------------------------------------------------------------------
// Envelopes: {error, message, data} on success; error shape A {error: true, message} and shape B
// {status: string|boolean, message, data: []}; India plans use {status: true, message, data}.

export type Envelope =
  | { outcome: "ok"; message: string; data: unknown }
  | { outcome: "error"; message: string }
  | { outcome: "unrecognised" };

const FAILURE_WORDS = new Set(["false", "failed", "failure", "fail", "error", "0", "no"]);
const SUCCESS_WORDS = new Set(["true", "success", "successful", "ok", "1", "yes"]);

/** true/false from a boolean, 0/1 or their text; undefined when it is neither. */
function boolish(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (FAILURE_WORDS.has(word)) return false;
    if (SUCCESS_WORDS.has(word)) return true;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The provider's human message from any body shape, or null. */
export function messageOf(body: unknown): string | null {
  if (!isRecord(body)) return null;
  for (const key of ["message", "msg", "error_message"] as const) {
    const v = body[key];
    if (typeof v === "string" && v.trim() !== "") return v.trim();
  }
  // Some PHP services put the text in `error` itself; "true"/"false" there is a flag, not a message.
  const error = body.error;
  if (typeof error === "string" && error.trim() !== "" && boolish(error) === undefined) {
    return error.trim();
  }
  return null;
}

export function readEnvelope(body: unknown): Envelope {
  if (!isRecord(body)) return { outcome: "unrecognised" };
  const message = messageOf(body) ?? "";
  if ("error" in body) {
    const isError = boolish(body.error);
    if (isError === true) return { outcome: "error", message };
    if (isError === false) return { outcome: "ok", message, data: body.data };
    // `error` holding a message text: an error all the same.
    if (typeof body.error === "string" && body.error.trim() !== "") {
      return { outcome: "error", message };
    }
    return { outcome: "unrecognised" };
  }
  if ("status" in body) {
    const ok = boolish(body.status);
    if (ok === false) return { outcome: "error", message };
    if (ok === true) return { outcome: "ok", message, data: body.data };
    return { outcome: "unrecognised" };
  }
  if ("data" in body) return { outcome: "ok", message, data: body.data };
  return { outcome: "unrecognised" };
}

/**
 * Error shape B exactly as the status endpoints send it (spec 7): `status` false or a failure word,
 * a `message`, `data` a blank array. Only this body is the provider itself refusing a status query.
 */
export const wireStatusError = z.object({
  status: z
    .union([z.boolean(), z.string()])
    .refine((v) => boolish(v) === false, "status is not a failure"),
  message: z.string().trim().min(1),
  data: z.array(z.unknown()).length(0),
});

/** Provider messages that say a status query's id is unknown to it. */
export const NOT_FOUND_MESSAGE =
  /not\s*found|no\s+(such|record|transaction|order|data)|does\s*n[o']t\s+exist|invalid\s+order/i;

// ---------------------------------------------------------------------------------------------
// Wire payloads (the `data` member of a success envelope)

export const wirePackage = z
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
export const wireOption = z.record(z.string(), z.unknown()).transform((r, ctx): Option => {
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
export const wireCircle = z
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
    customer_name: wireText.optional(),
    connection_no: wireText.optional(),
    reference_no: wireId.optional(),
    bill_amount: wireOptionalPaisa,
  })
  .transform((b, ctx) => {
    // An object with none of a bill's fields is not "nothing due": it says nothing about a bill.
    if (
      b.customer_name === undefined &&
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
      connectionNo: b.connection_no ?? null,
      referenceNo: b.reference_no ?? null,
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
      details: z.object({ connection_no: wireOptionalText, operator: wireOptionalText }).nullish(),
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
    credit_consumed: z
      .object({
        service_charge: wireOptionalPaisa,
        instant_discount: wireOptionalPaisa,
        debit_amount: wireOptionalPaisa,
      })
      .nullish(),
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
      creditAvailablePaisa: d.credit_available ?? d.credits_available,
      commissionPaisa: d.commission,
    };
  });
