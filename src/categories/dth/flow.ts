import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { Flow, type Parsed } from "../../bot/flow/toolkit.ts";
import { validateAccountId } from "../../catalog/index.ts";
import type { DthListing } from "../../provider/index.ts";
import { offeredOperators } from "../shared/offered.ts";
import { choosePackage, packageDraft } from "../shared/package.ts";

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
    const operators = await offeredOperators(flow, "dth");
    if (!operators) return;

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
      const pkg = await choosePackage(
        flow,
        listing.packages,
        {
          none: () => t("dth-no-packages", { operator: operator.name }),
          ask: (count) => t("dth-ask-package", { count }),
          label: (name, amount) => t("dth-package", { name, amount }),
        },
        PACKAGES_PER_PAGE,
      );
      if (!pkg) continue;
      await flow.confirmAndPlace(
        packageDraft("dth", operator, customerId, pkg, listing.ourReference, listing.referenceNo),
        info,
      );
      return;
    }
  };
}
