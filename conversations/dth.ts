import type { FlowContext, FlowConversation } from "../src/bot/context.ts";
import type { BotDeps } from "../src/bot/deps.ts";
import { Flow, type Parsed } from "../src/bot/flow/toolkit.ts";
import { formatRupees } from "../src/bot/format.ts";
import { validateAccountId } from "../src/catalog/index.ts";
import type { DthListing } from "../src/provider/index.ts";

/**
 * TV (DTH): operator -> customer id -> the aggregator's listing, which names the subscriber (shown
 * so the user can check it is the right box) -> package (paged) -> confirm. The execute must carry
 * the reference the listing returned (spec 4.1).
 */

const PACKAGES_PER_PAGE = 6;

export function dthConversation(deps: BotDeps) {
  return async function dth(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;
    // Ids may hold letters, so "digits only" would be the wrong reason for a stray character.
    const parseAccount = (text: string): Parsed<string> => {
      const r = validateAccountId(text);
      return !r.ok && r.error.code === "not_digits"
        ? { ok: false, error: t("dth-invalid-customer") }
        : flow.rule(r);
    };
    const operators = deps.catalog.byCategory("dth");

    for (;;) {
      const opId = await flow.choose(
        t("dth-ask-operator"),
        operators.map((o) => ({ label: o.name, value: String(o.id) })),
        // All of them on one page: there are only eleven.
        { columns: 2, pageSize: operators.length },
      );
      const operator = deps.catalog.operator(Number(opId))!;

      // Customer id until the aggregator knows it; a refusal keeps the operator and asks again.
      let found: { customerId: string; listing: DthListing & { ourReference: string } } | null =
        null;
      while (found === null) {
        const customerId = await flow.ask(
          t("dth-ask-customer", { operator: operator.name }),
          parseAccount,
        );
        const r = await flow.lookup(async () => {
          const ourReference = await deps.orders.nextReference();
          const listing = await deps.provider.listDthPackages({
            operatorId: operator.id,
            operatorTypeId: operator.operatorTypeId,
            connectionNo: customerId,
            referenceNo: ourReference,
          });
          return { ...listing, ourReference };
        });
        if (r.ok) found = { customerId, listing: r.value };
        else await flow.reply(t("dth-customer-rejected", { message: r.message }));
      }
      const { customerId, listing } = found;

      const info = listing.customerInfo;
      if (info.length > 0) {
        await flow.reply(
          t("dth-customer-info", {
            operator: operator.name,
            id: customerId,
            info: info.join("\n"),
          }),
        );
      }
      const packages = listing.packages.filter((p) => p.amountPaisa > 0);
      if (packages.length === 0) {
        await flow.reply(t("dth-no-packages", { operator: operator.name }));
        continue;
      }
      // Buttons carry the position, not the provider's id, which may not fit in callback data.
      const pick = await flow.choose(
        t("dth-ask-package", { count: packages.length }),
        packages.map((p, i) => ({
          label: t("dth-package", { name: p.name, amount: formatRupees(p.amountPaisa) }),
          value: String(i),
        })),
        { pageSize: PACKAGES_PER_PAGE, columns: 1 },
      );
      const pkg = packages[Number(pick)]!;
      await flow.confirmAndPlace(
        {
          category: "dth",
          region: "np",
          operatorId: operator.id,
          operatorTypeId: operator.operatorTypeId,
          operatorName: operator.name,
          connectionNo: customerId,
          amountPaisa: pkg.amountPaisa,
          details: { packageId: pkg.id, packageName: pkg.name },
          referenceNo: listing.ourReference,
          ...(listing.referenceNo !== listing.ourReference
            ? { executeReference: listing.referenceNo }
            : {}),
        },
        info,
      );
      return;
    }
  };
}
