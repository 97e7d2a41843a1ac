import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { type Choice, Flow } from "../../bot/flow/toolkit.ts";
import {
  detectOperator,
  FAMILY_PREFIXES,
  type Family,
  validateMobileNumber,
} from "../../catalog/index.ts";
import { offeredOperators } from "../shared/offered.ts";
import { choosePackage, listPackages, packageDraft } from "../shared/package.ts";

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
    const operators = await offeredOperators(flow, "datapack");
    if (!operators) return;

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
    // The provider may list the other family's products only: nothing to choose for this number.
    if (products.length === 0) {
      await flow.reply(t("catalog-none-for-number", { number }));
      return;
    }

    for (;;) {
      const opId = await flow.choose(
        t("datapack-ask-product", { family: t(`datapack-family-${family}`), number }),
        products,
        { columns: 2 },
      );
      const operator = deps.catalog.operator(Number(opId))!;
      const listing = await listPackages(flow, operator, number, (query) =>
        deps.provider.listDataPackages(query),
      );
      if (!listing.ok) {
        await flow.reply(t("datapack-list-rejected", { message: listing.message }));
        continue;
      }
      const { referenceNo, packages } = listing.value;
      const pkg = await choosePackage(
        flow,
        packages,
        {
          none: () => t("datapack-no-packages", { operator: operator.name }),
          ask: (count) => t("datapack-ask-package", { operator: operator.name, number, count }),
          label: (name, amount) => t("datapack-package", { name, amount }),
        },
        PACKAGES_PER_PAGE,
      );
      if (!pkg) continue;
      await flow.confirmAndPlace(packageDraft("datapack", operator, number, pkg, referenceNo));
      return;
    }
  };
}
