import { z } from "zod";
import {
  type Catalog,
  checkAmount,
  type Operator,
  prefixesFor,
  type Region,
  validateAccountId,
  validateIndiaNumber,
  validateLandline,
  validateMobileNumber,
  validateMonth,
} from "../../src/catalog/index.ts";
import { toRupeesString } from "../../src/money.ts";
import {
  CIRCLES,
  ELECTRICITY_OFFICES,
  internetPackagesFor,
  type Office,
  type SandboxPackage,
  WATER_OFFICES,
} from "./data.ts";
import {
  amountField,
  firstMessage,
  intField,
  referenceField,
  ruleMessage,
  textField,
} from "./fields.ts";

/**
 * Execute validation, exactly the rules of spec 4.1 and 8: required fields per category, prefixes and
 * digit counts, amount bounds, month 1..12, packages that belong to the operator and to the listing
 * whose reference the execute carries, office codes that exist. Pure: the listings come in as a
 * lookup function.
 */

export type Reference = { raw: string | number; text: string };

export interface Listing {
  category: "datapack" | "dth" | "internet";
  operatorId: number;
  connectionNo: string;
  packages: SandboxPackage[];
}

export interface ValidOrder {
  operator: Operator;
  connectionNo: string;
  reference: Reference;
  amountPaisa: number;
  packageName: string | null;
  /** Category-specific fields kept on the transaction (office code, month, circle, ...). */
  details: Record<string, string>;
}

export type Validation = { ok: true; order: ValidOrder } | { ok: false; message: string };

export interface ValidateContext {
  catalog: Catalog;
  /** The region of the path the execute came on: /np accepts every operator, /in India only. */
  region: Region;
  listing(referenceText: string): Listing | undefined;
}

const headSchema = z.looseObject({
  operator_id: intField("operator_id"),
  operator_type_id: intField("operator_type_id"),
});

const conn = textField("connection_no");
const ref = referenceField("reference_no");
const amount = amountField("amount");

const SCHEMAS = {
  internet: z.looseObject({
    connection_no: conn,
    package_id: textField("package_id"),
    package_name: textField("package_name", 200),
    amount,
    reference_no: ref,
  }),
  datapack: z.looseObject({
    connection_no: conn,
    package_id: textField("package_id"),
    reference_no: ref,
    amount: amount.optional(),
  }),
  dth: z.looseObject({
    connection_no: conn,
    package_id: textField("package_id"),
    reference_no: ref,
    amount: amount.optional(),
  }),
  mobile: z.looseObject({ connection_no: conn, reference_no: ref, amount }),
  landline: z.looseObject({ connection_no: conn, reference_no: ref, amount }),
  india: z.looseObject({
    circle_id: intField("circle_id"),
    connection_no: conn,
    reference_no: ref,
    amount,
  }),
  water: z.looseObject({
    connection_no: conn,
    office_code: textField("office_code"),
    reference_no: ref,
    month_id: z.union([z.string(), z.number()], { error: "month_id is required" }),
    amount,
  }),
  electricity: z.looseObject({
    connection_no: conn,
    office_code: textField("office_code"),
    sc_no: textField("sc_no"),
    reference_no: ref,
    phone: textField("phone"),
    advance_amount: amountField("advance_amount"),
  }),
} as const;

const fail = (message: string): Validation => ({ ok: false, message });
const DIGITS = /^\d+$/;

/**
 * Numbers are checked as sent: the provider does not normalise "+977", a trunk 0, spaces or dashes
 * the way the catalogue's rules (made for typed input) do. Null when `value` is exactly `n` digits.
 */
export function exactDigits(value: string, n: number): string | null {
  if (!DIGITS.test(value)) return "connection_no must contain digits only";
  if (value.length !== n)
    return `connection_no must have exactly ${n} digits (got ${value.length})`;
  return null;
}

/** The operator named by a body, checked against its operator type. */
export function resolveOperator(
  catalog: Catalog,
  body: Record<string, unknown>,
): { ok: true; operator: Operator } | { ok: false; message: string } {
  const head = headSchema.safeParse(body);
  if (!head.success) return { ok: false, message: firstMessage(head.error) };
  const op = catalog.operator(head.data.operator_id);
  if (!op) return { ok: false, message: `Unknown operator_id ${head.data.operator_id}` };
  if (op.operatorTypeId !== head.data.operator_type_id) {
    return {
      ok: false,
      message: `operator_type_id ${head.data.operator_type_id} does not match ${op.name} (operator type ${op.operatorTypeId})`,
    };
  }
  return { ok: true, operator: op };
}

export function officesFor(op: Operator): readonly Office[] | null {
  if (op.category === "water") return WATER_OFFICES;
  if (op.category === "electricity") return ELECTRICITY_OFFICES;
  return null;
}

function boundsMessage(op: Operator, catalog: Catalog, amountPaisa: number): string | null {
  const bounds = catalog.amountBounds(op);
  if (!bounds) return amountPaisa > 0 ? null : "amount must be more than 0";
  const r = checkAmount(amountPaisa, bounds);
  if (r.ok) return null;
  return `amount must be between Rs ${toRupeesString(bounds.minPaisa)} and Rs ${toRupeesString(bounds.maxPaisa)} for ${op.name}`;
}

/**
 * A data-pack or DTH execute: the package must come from a listing made for the same operator and
 * connection number under the reference the execute carries; the price is the listing's.
 */
function orderFromListing(
  ctx: ValidateContext,
  op: Operator,
  connectionNo: string,
  data: { reference_no: Reference; package_id: string; amount?: number | undefined },
): Validation {
  const listing = ctx.listing(data.reference_no.text);
  if (!listing)
    return fail("reference_no does not match a package listing; list the packages first");
  if (listing.operatorId !== op.id || listing.connectionNo !== connectionNo) {
    return fail("reference_no belongs to a package listing for another operator or connection_no");
  }
  const pkg = listing.packages.find((p) => String(p.id) === data.package_id);
  if (!pkg) return fail(`Unknown package_id ${data.package_id} for ${op.name}`);
  const pricePaisa = pkg.amountPaisa;
  if (data.amount !== undefined && data.amount !== pricePaisa) {
    return fail(`amount does not match the package price (Rs ${toRupeesString(pricePaisa)})`);
  }
  return {
    ok: true,
    order: {
      operator: op,
      connectionNo,
      reference: data.reference_no,
      amountPaisa: pricePaisa,
      packageName: pkg.name,
      details: { package_id: String(pkg.id) },
    },
  };
}

/** A mobile, landline or India execute: the amount is the customer's, within the operator's bounds. */
function amountOrder(
  ctx: ValidateContext,
  op: Operator,
  connectionNo: string,
  data: { reference_no: Reference; amount: number },
  details: ValidOrder["details"] = {},
): Validation {
  const bad = boundsMessage(op, ctx.catalog, data.amount);
  if (bad) return fail(bad);
  return {
    ok: true,
    order: {
      operator: op,
      connectionNo,
      reference: data.reference_no,
      amountPaisa: data.amount,
      packageName: null,
      details,
    },
  };
}

export function validateExecute(ctx: ValidateContext, body: Record<string, unknown>): Validation {
  const resolved = resolveOperator(ctx.catalog, body);
  if (!resolved.ok) return fail(resolved.message);
  const op = resolved.operator;
  if (ctx.region === "in" && op.region !== "in") {
    return fail(`${op.name} is not an India operator; use /np/recharge/execute`);
  }

  switch (op.category) {
    case "mobile": {
      const b = SCHEMAS.mobile.safeParse(body);
      if (!b.success) return fail(firstMessage(b.error));
      const digits = exactDigits(b.data.connection_no, 10);
      if (digits) return fail(digits);
      const n = validateMobileNumber(b.data.connection_no, prefixesFor(op) ?? []);
      if (!n.ok) return fail(ruleMessage("connection_no", n.error));
      return amountOrder(ctx, op, n.value, b.data);
    }
    case "landline": {
      const b = SCHEMAS.landline.safeParse(body);
      if (!b.success) return fail(firstMessage(b.error));
      const c = b.data.connection_no;
      if (!DIGITS.test(c)) return fail("connection_no must contain digits only");
      if (c.startsWith("0")) return fail("connection_no must not start with 0");
      const n = validateLandline(c);
      if (!n.ok) return fail(ruleMessage("connection_no", n.error));
      return amountOrder(ctx, op, n.value, b.data);
    }
    case "india": {
      const b = SCHEMAS.india.safeParse(body);
      if (!b.success) return fail(firstMessage(b.error));
      if (!CIRCLES.some((c) => c.id === String(b.data.circle_id))) {
        return fail(`Unknown circle_id ${b.data.circle_id}`);
      }
      const digits = exactDigits(b.data.connection_no, 10);
      if (digits) return fail(digits);
      const n = validateIndiaNumber(b.data.connection_no);
      if (!n.ok) return fail(ruleMessage("connection_no", n.error));
      return amountOrder(ctx, op, n.value, b.data, { circle_id: String(b.data.circle_id) });
    }
    case "datapack": {
      const b = SCHEMAS.datapack.safeParse(body);
      if (!b.success) return fail(firstMessage(b.error));
      const digits = exactDigits(b.data.connection_no, 10);
      if (digits) return fail(digits);
      const n = validateMobileNumber(b.data.connection_no, prefixesFor(op) ?? []);
      if (!n.ok) return fail(ruleMessage("connection_no", n.error));
      return orderFromListing(ctx, op, n.value, b.data);
    }
    case "dth": {
      const b = SCHEMAS.dth.safeParse(body);
      if (!b.success) return fail(firstMessage(b.error));
      const c = validateAccountId(b.data.connection_no);
      if (!c.ok) return fail(ruleMessage("connection_no", c.error));
      return orderFromListing(ctx, op, c.value, b.data);
    }
    case "internet": {
      const b = SCHEMAS.internet.safeParse(body);
      if (!b.success) return fail(firstMessage(b.error));
      const c = validateAccountId(b.data.connection_no);
      if (!c.ok) return fail(ruleMessage("connection_no", c.error));
      const pkg = internetPackagesFor(op).find((p) => String(p.id) === b.data.package_id);
      if (!pkg) return fail(`Unknown package_id ${b.data.package_id} for ${op.name}`);
      if (pkg.name.toLowerCase() !== b.data.package_name.toLowerCase()) {
        return fail(`package_name does not match package ${pkg.id} ("${pkg.name}")`);
      }
      const pricePaisa = pkg.amountPaisa;
      if (b.data.amount !== pricePaisa) {
        return fail(`amount does not match the package price (Rs ${toRupeesString(pricePaisa)})`);
      }
      return {
        ok: true,
        order: {
          operator: op,
          connectionNo: c.value,
          reference: b.data.reference_no,
          amountPaisa: pricePaisa,
          packageName: pkg.name,
          details: { package_id: String(pkg.id) },
        },
      };
    }
    case "water": {
      const b = SCHEMAS.water.safeParse(body);
      if (!b.success) return fail(firstMessage(b.error));
      const c = validateAccountId(b.data.connection_no);
      if (!c.ok) return fail(ruleMessage("connection_no", c.error));
      if (!WATER_OFFICES.some((o) => o.value === b.data.office_code)) {
        return fail(`Unknown office_code ${b.data.office_code} for ${op.name}`);
      }
      const month = validateMonth(b.data.month_id);
      if (!month.ok) return fail(ruleMessage("month_id", month.error));
      const bad = boundsMessage(op, ctx.catalog, b.data.amount);
      if (bad) return fail(bad);
      return {
        ok: true,
        order: {
          operator: op,
          connectionNo: c.value,
          reference: b.data.reference_no,
          amountPaisa: b.data.amount,
          packageName: null,
          details: { office_code: b.data.office_code, month_id: String(month.value) },
        },
      };
    }
    case "electricity": {
      const b = SCHEMAS.electricity.safeParse(body);
      if (!b.success) return fail(firstMessage(b.error));
      const c = validateAccountId(b.data.connection_no);
      if (!c.ok) return fail(ruleMessage("connection_no", c.error));
      if (!ELECTRICITY_OFFICES.some((o) => o.value === b.data.office_code)) {
        return fail(`Unknown office_code ${b.data.office_code} for ${op.name}`);
      }
      const sc = validateAccountId(b.data.sc_no);
      if (!sc.ok) return fail(ruleMessage("sc_no", sc.error));
      if (!/^\d{7,10}$/.test(b.data.phone))
        return fail("phone must be a phone number of 7 to 10 digits");
      if (b.data.advance_amount <= 0) return fail("advance_amount must be more than 0");
      return {
        ok: true,
        order: {
          operator: op,
          connectionNo: c.value,
          reference: b.data.reference_no,
          amountPaisa: b.data.advance_amount,
          packageName: null,
          details: { office_code: b.data.office_code, sc_no: sc.value, phone: b.data.phone },
        },
      };
    }
  }
}
