import type { OrderDraft } from "../../bot/deps.ts";
import { checkAmount } from "../../catalog/index.ts";
import { formatMoney } from "../../money.ts";
import type { Order } from "../../orders/model.ts";
import type { Bill, Package, ProviderClient } from "../../provider/index.ts";
import type { Rebuilt, RepeatKit } from "./module.ts";
import type { Detailed } from "./order-part.ts";

/**
 * How the three kinds of category rebuild a repeat. Amount-only categories reuse the draft as it
 * was; package and bill categories run their lookup again (a package listing must be fresh and its
 * reference is the one the execute carries; a bill may have changed), and say so when the package
 * is gone or nothing is due.
 */

/**
 * A draft of the order's own category. `details` are of one of the order's possible categories by
 * type; the callers derive them from this same order's details, which keeps category and details
 * paired (the type system cannot see that through a union, hence the one cast).
 */
function draftOf<O extends Order>(
  kit: RepeatKit,
  order: O,
  fields: {
    amountPaisa: number;
    details: O["details"];
    reference?: string;
    executeReference?: string;
  },
): OrderDraft {
  return { ...kit.base, category: order.category, ...fields } as OrderDraft;
}

/** The amount must still be within today's bounds (settings can change). */
export function amountStillAllowed(kit: RepeatKit, amountPaisa: number): boolean {
  const bounds = kit.flow.deps.catalog.amountBounds(kit.operator);
  return !bounds || checkAmount(amountPaisa, bounds).ok;
}

/** The same amount and details again. */
export function sameAgain(kit: RepeatKit, order: Order): Rebuilt {
  if (!amountStillAllowed(kit, order.amountPaisa)) return kit.unavailable;
  return {
    ok: true,
    draft: draftOf(kit, order, { amountPaisa: order.amountPaisa, details: order.details }),
    extra: [],
  };
}

/** What a package order (data pack, internet, DTH) carries: the package chosen. */
type PackageDetails = { packageId: string; packageName: string };
/** What a bill order carries: the office, and electricity's SC number and phone. */
type BillDetails = {
  officeCode: string;
  customerName?: string;
  scNo?: string;
  billAmountPaisa?: number;
};

/** A package listing, in the shape every package category gives it. */
export interface Listed {
  packages: Package[];
  /** The reference the execute must carry (the listing's own, or ours). */
  referenceNo: string;
  /** Lines to show with the confirmation (the DTH subscriber). */
  info: string[];
}

export interface PackageQuery {
  operatorId: number;
  operatorTypeId: number;
  connectionNo: string;
  referenceNo: string;
}

/** A listing that returns packages only: the execute carries the reference we listed under. */
function underOurReference(
  list: (query: PackageQuery) => Promise<Package[]>,
): (query: PackageQuery) => Promise<Listed> {
  return async (query) => ({
    packages: await list(query),
    referenceNo: query.referenceNo,
    info: [],
  });
}

/** The same package, listed again under a fresh reference; its price today is what is paid. */
export async function samePackage(
  kit: RepeatKit,
  order: Detailed<PackageDetails>,
  list: (query: PackageQuery) => Promise<Listed>,
): Promise<Rebuilt> {
  const { flow, operator } = kit;
  const { packageId, packageName } = order.details;
  const referenceNo = await kit.fresh();
  const query = {
    operatorId: operator.id,
    operatorTypeId: operator.operatorTypeId,
    connectionNo: order.connectionNo,
    referenceNo,
  };
  const listed = await flow.lookup(() => list(query));
  if (!listed.ok) return kit.failed(listed.message);
  const pkg = listed.value.packages.find((p) => p.id === packageId && p.amountPaisa > 0);
  if (!pkg) return kit.gone(packageName);
  return {
    ok: true,
    draft: draftOf(kit, order, {
      amountPaisa: pkg.amountPaisa,
      details: { ...order.details, packageId: pkg.id, packageName: pkg.name },
      reference: referenceNo,
      ...(listed.value.referenceNo !== referenceNo
        ? { executeReference: listed.value.referenceNo }
        : {}),
    }),
    extra: listed.value.info,
  };
}

/** The repeat of a category whose listing returns packages only (datapack, internet). */
export function samePackageUnderOurReference(
  list: (provider: ProviderClient, query: PackageQuery) => Promise<Package[]>,
): (kit: RepeatKit, order: Detailed<PackageDetails>) => Promise<Rebuilt> {
  return (kit, order) =>
    samePackage(
      kit,
      order,
      underOurReference((query) => list(kit.flow.deps.provider, query)),
    );
}

export interface BillQuery extends PackageQuery {
  officeCode: string;
}

/** A bill's account: its category, operator, customer, office and (electricity) SC number. */
export interface BillAccount {
  category: string;
  operatorId: number;
  connectionNo: string;
  officeCode: string;
  scNo?: string | undefined;
}

/** Whether an order pays the bill of `account`. */
export function paysBillOf(account: BillAccount) {
  return (o: Order) =>
    o.category === account.category &&
    o.operatorId === account.operatorId &&
    o.connectionNo === account.connectionNo &&
    o.details.officeCode === account.officeCode &&
    o.details.scNo === account.scNo;
}

/** Whether two orders pay the same bill. */
function sameBillAs(order: Detailed<BillDetails>) {
  return paysBillOf({
    category: order.category,
    operatorId: order.operatorId,
    connectionNo: order.connectionNo,
    officeCode: order.details.officeCode,
    scNo: order.details.scNo,
  });
}

/**
 * The bill checked again under a fresh reference: the bill decides the amount, so a month the
 * utility shows as paid is never paid again. While a payment of the same bill is still under way
 * the bill may not show it yet, so the repeat waits for its result instead of paying twice.
 */
export async function sameBill(
  kit: RepeatKit,
  order: Detailed<BillDetails>,
  check: (query: BillQuery) => Promise<Bill>,
): Promise<Rebuilt> {
  const { flow, operator } = kit;
  const { t } = flow;
  const underWay = await kit.unsettled(sameBillAs(order));
  if (underWay)
    return { ok: false, message: t("repeat-bill-under-way", { ref: underWay.reference }) };
  const referenceNo = await kit.fresh();
  const checked = await flow.lookup(() =>
    check({
      operatorId: operator.id,
      operatorTypeId: operator.operatorTypeId,
      connectionNo: order.connectionNo,
      referenceNo,
      officeCode: order.details.officeCode,
    }),
  );
  if (!checked.ok) return kit.failed(checked.message);
  const bill = checked.value;
  // With nothing due, an advance is a new decision (/recharge).
  if (bill.billAmountPaisa <= 0) return { ok: false, message: t("repeat-nothing-due") };
  return {
    ok: true,
    draft: draftOf(kit, order, {
      amountPaisa: bill.billAmountPaisa,
      details: {
        ...order.details,
        customerName: bill.customerName,
        billAmountPaisa: bill.billAmountPaisa,
      },
      // Placed under the reference of the check, as the bill flows do.
      reference: referenceNo,
    }),
    extra: [
      t("repeat-bill", {
        name: bill.customerName,
        amount: formatMoney(bill.billAmountPaisa, { locale: t.locale }),
      }),
    ],
  };
}
