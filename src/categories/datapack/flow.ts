import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { type Choice, Flow, type Step } from "../../bot/flow/toolkit.ts";
import {
  detectOperator,
  FAMILY_PREFIXES,
  type Family,
  type Operator,
  validateMobileNumber,
} from "../../catalog/index.ts";
import type { Package } from "../../provider/index.ts";
import { offeredOperators } from "../shared/offered.ts";
import { choosePackage, type Listing, listPackages, packageDraft } from "../shared/package.ts";
import { prefilled } from "../shared/prefill.ts";
import { savedNumberChoices } from "../shared/saved.ts";

/**
 * Data / voice / SMS packs: number -> operator family from the prefix (Ncell or NTC) -> product of
 * that family -> the aggregator's package list (paged) -> confirm. The listing is made under a
 * reference of ours, and the execute must carry that same reference (spec 4.1).
 */

const ALL_FAMILY_PREFIXES = [...FAMILY_PREFIXES.ncell, ...FAMILY_PREFIXES.ntc];
const PACKAGES_PER_PAGE = 5;

interface State {
  number?: string;
  operator?: Operator;
  /** The listing the package was chosen from, and for which number and product it was made. */
  listing?: Listing & { number: string; operatorId: number };
  pkg?: Package;
}

// The number passed the family prefixes, so detection cannot come back empty.
const familyOf = (number: string): Family => (detectOperator(number) === "ncell" ? "ncell" : "ntc");

export function datapackConversation(deps: BotDeps) {
  return async function datapack(
    conversation: FlowConversation,
    ctx: FlowContext,
    given?: unknown,
  ) {
    const flow = await Flow.start(conversation, ctx, deps, "datapack");
    // A number a shortcut brought (an Ncell number typed alone): answers the first question.
    const pre = prefilled(given);
    const { t } = flow;
    const operators = await offeredOperators(flow, "datapack");

    const steps: Step<State>[] = [
      {
        name: "number",
        editKey: "flow-edit-number",
        run: async (st) => {
          const brought = validateMobileNumber(pre.take("number") ?? "", ALL_FAMILY_PREFIXES);
          if (brought.ok) {
            st.number = brought.value;
            return;
          }
          const choices = await savedNumberChoices(
            flow,
            "datapack",
            (e) => validateMobileNumber(e.number, ALL_FAMILY_PREFIXES).ok,
          );
          st.number = await flow.ask(
            t("datapack-ask-number"),
            (text) => flow.rule(validateMobileNumber(text, ALL_FAMILY_PREFIXES)),
            { choices },
          );
        },
      },
      {
        name: "product",
        // Another number of the same family keeps the product.
        holds: (st) => st.operator?.family === familyOf(st.number!),
        run: async (st) => {
          const family = familyOf(st.number!);
          const products: Choice[] = operators
            .filter((o) => o.family === family)
            .map((o) => ({
              label: t(`datapack-product-${o.product ?? "data"}`),
              value: String(o.id),
            }));
          // The provider may list the other family's products only: nothing to choose for this number.
          if (products.length === 0) {
            return flow.end(t("catalog-none-for-number", { number: st.number! }));
          }
          const opId = await flow.choose(
            t("datapack-ask-product", {
              family: t(`datapack-family-${family}`),
              number: st.number!,
            }),
            products,
            { columns: 2 },
          );
          st.operator = deps.catalog.operator(Number(opId))!;
        },
      },
      {
        name: "package",
        editKey: "flow-edit-package",
        // A listing is made for one number and product: another one is listed afresh.
        holds: (st) =>
          st.listing?.number === st.number && st.listing?.operatorId === st.operator?.id,
        run: async (st) => {
          const number = st.number!;
          const operator = st.operator!;
          const listing = await listPackages(flow, operator, number, (query) =>
            deps.provider.listDataPackages(query),
          );
          if (!listing.ok) {
            await flow.reply(t("datapack-list-rejected", { message: listing.message }));
            return { redo: "product" };
          }
          const pkg = await choosePackage(
            flow,
            listing.value.packages,
            {
              none: () => t("datapack-no-packages", { operator: operator.name }),
              ask: (count) => t("datapack-ask-package", { operator: operator.name, number, count }),
              label: (name, amount) => t("datapack-package", { name, amount }),
            },
            PACKAGES_PER_PAGE,
            { category: "datapack", operatorId: operator.id, region: "np" },
          );
          if (!pkg) return { redo: "product" };
          st.listing = { ...listing.value, number, operatorId: operator.id };
          st.pkg = pkg;
        },
      },
    ];

    await flow.steps<State>({}, steps, (st) => ({
      draft: packageDraft("datapack", st.operator!, st.number!, st.pkg!, st.listing!.referenceNo),
    }));
  };
}
