import type { FlowContext, FlowConversation } from "../src/bot/context.ts";
import type { BotDeps } from "../src/bot/deps.ts";
import { type Choice, Flow } from "../src/bot/flow/toolkit.ts";
import { formatRupees } from "../src/bot/format.ts";
import {
  detectOperator,
  FAMILY_PREFIXES,
  type Family,
  validateMobileNumber,
} from "../src/catalog/index.ts";

/**
 * Data / voice / SMS packs: number -> operator family from the prefix (Ncell or NTC) -> product of
 * that family -> the aggregator's package list (paged) -> confirm. The listing is made under a
 * reference of ours, and the execute must carry that same reference (spec 4.1).
 */

const ALL_FAMILY_PREFIXES = [...FAMILY_PREFIXES.ncell, ...FAMILY_PREFIXES.ntc];
const PACKAGES_PER_PAGE = 5;

export function datapackConversation(deps: BotDeps) {
  return async function datapack(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;
    const operators = deps.catalog.byCategory("datapack");

    // Saved numbers may include landlines and numbers of other categories: offer only packable ones.
    const saved = flow.env.savedNumbers.filter(
      (n) => validateMobileNumber(n, ALL_FAMILY_PREFIXES).ok,
    );
    const number = await flow.ask(
      t("datapack-ask-number"),
      (text) => flow.rule(validateMobileNumber(text, ALL_FAMILY_PREFIXES)),
      { choices: saved.map((n) => ({ label: n, value: n })) },
    );
    // The number passed the family prefixes, so detection cannot come back empty.
    const family: Family = detectOperator(number) === "ncell" ? "ncell" : "ntc";
    const products: Choice[] = operators
      .filter((o) => o.family === family)
      .map((o) => ({ label: t(`datapack-product-${o.product ?? "data"}`), value: String(o.id) }));

    for (;;) {
      const opId = await flow.choose(
        t("datapack-ask-product", { family: t(`datapack-family-${family}`), number }),
        products,
        { columns: 2 },
      );
      const operator = deps.catalog.operator(Number(opId))!;
      const listing = await flow.lookup(async () => {
        const referenceNo = await deps.orders.nextReference();
        const packages = await deps.provider.listDataPackages({
          operatorId: operator.id,
          operatorTypeId: operator.operatorTypeId,
          connectionNo: number,
          referenceNo,
        });
        // A package without a price cannot be ordered.
        return { referenceNo, packages: packages.filter((p) => p.amountPaisa > 0) };
      });
      if (!listing.ok) {
        await flow.reply(t("datapack-list-rejected", { message: listing.message }));
        continue;
      }
      const { referenceNo, packages } = listing.value;
      if (packages.length === 0) {
        await flow.reply(t("datapack-no-packages", { operator: operator.name }));
        continue;
      }
      // Buttons carry the position, not the provider's id, which may not fit in callback data.
      const pick = await flow.choose(
        t("datapack-ask-package", { operator: operator.name, number, count: packages.length }),
        packages.map((p, i) => ({
          label: t("datapack-package", { name: p.name, amount: formatRupees(p.amountPaisa) }),
          value: String(i),
        })),
        { pageSize: PACKAGES_PER_PAGE, columns: 1 },
      );
      const pkg = packages[Number(pick)]!;
      await flow.confirmAndPlace({
        category: "datapack",
        region: "np",
        operatorId: operator.id,
        operatorTypeId: operator.operatorTypeId,
        operatorName: operator.name,
        connectionNo: number,
        amountPaisa: pkg.amountPaisa,
        details: { packageId: pkg.id, packageName: pkg.name },
        referenceNo,
      });
      return;
    }
  };
}
