import type { OrderDraft } from "../../bot/deps.ts";
import type { Flow, LookupResult, Priced } from "../../bot/flow/toolkit.ts";
import type { Operator } from "../../catalog/index.ts";
import { formatMoney } from "../../money.ts";
import { mintReference } from "../../orders/index.ts";
import type { Package } from "../../provider/index.ts";
import type { PackageQuery } from "./repeat.ts";

/**
 * Steps shared by the package flows (datapack, internet, dth): choosing one package of a listing
 * and the draft of its order. Not a flow itself.
 */

export interface Listing {
  /** The reference the listing was made under; the execute carries it too (spec 4.1). */
  referenceNo: string;
  packages: Package[];
}

/** A listing under a fresh reference of ours (a retry after a transient failure takes another). */
export function listPackages(
  flow: Flow,
  operator: Operator,
  connectionNo: string,
  list: (query: PackageQuery) => Promise<Package[]>,
): Promise<LookupResult<Listing>> {
  return flow.lookup(async () => {
    const referenceNo = await mintReference(flow.deps.orders);
    const packages = await list({
      operatorId: operator.id,
      operatorTypeId: operator.operatorTypeId,
      connectionNo,
      referenceNo,
    });
    return { referenceNo, packages };
  });
}

/** The category's own texts of the package step (literal keys in each flow keep them checked). */
export interface PackageTexts {
  /** The operator lists no priced package. */
  none: () => string;
  ask: (count: number) => string;
  /** One package's button. */
  label: (name: string, amount: string) => string;
}

/**
 * One priced package of a listing (paged), or null after saying the operator has none, or none
 * that fits what the customer may still pay today (the flow then asks again from its start).
 * Packages over what is left today are not offered, and the question says so (as the amount
 * questions are narrowed and India's plans left out): one picked would only be refused.
 */
export async function choosePackage(
  flow: Flow,
  listed: Package[],
  texts: PackageTexts,
  pageSize: number,
  priced: Priced,
): Promise<Package | null> {
  // A package without a price cannot be ordered.
  const offered = listed.filter((p) => p.amountPaisa > 0);
  if (offered.length === 0) {
    await flow.reply(texts.none());
    return null;
  }
  const today = await flow.fittingToday(
    offered.map((p) => p.amountPaisa),
    priced,
  );
  const packages = offered.filter((_, i) => today.fits[i]);
  if (packages.length === 0) {
    const left = formatMoney(today.leftPaisa ?? 0, { locale: flow.t.locale });
    await flow.reply(flow.t("package-none-today", { left }));
    return null;
  }
  const over = packages.length < offered.length ? `${flow.t("package-over-limit")}\n` : "";
  // Buttons carry the position, not the provider's id, which may not fit in callback data.
  const pick = await flow.choose(
    over + texts.ask(packages.length),
    packages.map((p, i) => ({
      label: texts.label(p.name, formatMoney(p.amountPaisa, { locale: flow.t.locale })),
      value: String(i),
    })),
    { pageSize, columns: 1 },
  );
  return packages[Number(pick)]!;
}

/**
 * The order of a chosen package, placed under `referenceNo` (the one the listing was made under);
 * `executeReference` where the listing named another one the execute must carry.
 */
export function packageDraft(
  category: string,
  operator: Operator,
  connectionNo: string,
  pkg: Package,
  referenceNo: string,
  executeReference?: string,
): OrderDraft {
  return {
    category,
    region: "np",
    operatorId: operator.id,
    operatorTypeId: operator.operatorTypeId,
    operatorName: operator.name,
    connectionNo,
    amountPaisa: pkg.amountPaisa,
    details: { packageId: pkg.id, packageName: pkg.name },
    reference: referenceNo,
    ...(executeReference !== undefined && executeReference !== referenceNo
      ? { executeReference }
      : {}),
  };
}
