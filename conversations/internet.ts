import type { FlowContext, FlowConversation } from "../src/bot/context.ts";
import type { BotDeps } from "../src/bot/deps.ts";
import { Flow, type Parsed } from "../src/bot/flow/toolkit.ts";
import { formatRupees } from "../src/bot/format.ts";
import { validateAccountId } from "../src/catalog/index.ts";
import type { Package } from "../src/provider/index.ts";

/**
 * Internet: ISP (29 of them, paged and searchable by typing part of the name) -> username ->
 * the aggregator's package list -> package (paged) -> confirm. The listing and the execute share one
 * numeric reference of ours (internet executes send it as a JSON number).
 */

const ISPS_PER_PAGE = 8;
const PACKAGES_PER_PAGE = 6;

export function internetConversation(deps: BotDeps) {
  return async function internet(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;
    // Ids may hold letters, so "digits only" would be the wrong reason for a stray character.
    const parseAccount = (text: string): Parsed<string> => {
      const r = validateAccountId(text);
      return !r.ok && r.error.code === "not_digits"
        ? { ok: false, error: t("internet-invalid-username") }
        : flow.rule(r);
    };
    const isps = deps.catalog.byCategory("internet");

    for (;;) {
      const opId = await flow.choose(
        t("internet-ask-isp"),
        isps.map((o) => ({ label: o.name, value: String(o.id) })),
        { columns: 2, pageSize: ISPS_PER_PAGE, searchable: true },
      );
      const operator = deps.catalog.operator(Number(opId))!;

      // Username until the ISP knows it; a refusal keeps the ISP and asks again.
      let found: { username: string; referenceNo: string; packages: Package[] } | null = null;
      while (found === null) {
        const username = await flow.ask(
          t("internet-ask-username", { operator: operator.name }),
          parseAccount,
        );
        const r = await flow.lookup(async () => {
          const referenceNo = await deps.orders.nextReference();
          const packages = await deps.provider.listInternetPackages({
            operatorId: operator.id,
            operatorTypeId: operator.operatorTypeId,
            connectionNo: username,
            referenceNo,
          });
          return { referenceNo, packages };
        });
        if (r.ok) found = { username, ...r.value };
        else await flow.reply(t("internet-username-rejected", { message: r.message }));
      }
      const { username, referenceNo } = found;

      // A package without a price cannot be ordered.
      const packages = found.packages.filter((p) => p.amountPaisa > 0);
      if (packages.length === 0) {
        await flow.reply(t("internet-no-packages", { operator: operator.name }));
        continue;
      }
      // Buttons carry the position, not the provider's id, which may not fit in callback data.
      const pick = await flow.choose(
        t("internet-ask-package", { operator: operator.name, username, count: packages.length }),
        packages.map((p, i) => ({
          label: t("internet-package", { name: p.name, amount: formatRupees(p.amountPaisa) }),
          value: String(i),
        })),
        { pageSize: PACKAGES_PER_PAGE, columns: 1 },
      );
      const pkg = packages[Number(pick)]!;
      await flow.confirmAndPlace({
        category: "internet",
        region: "np",
        operatorId: operator.id,
        operatorTypeId: operator.operatorTypeId,
        operatorName: operator.name,
        connectionNo: username,
        amountPaisa: pkg.amountPaisa,
        details: { packageId: pkg.id, packageName: pkg.name },
        referenceNo,
      });
      return;
    }
  };
}
