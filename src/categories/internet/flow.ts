import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { Flow, type Parsed } from "../../bot/flow/toolkit.ts";
import { validateAccountId } from "../../catalog/index.ts";
import type { Package } from "../../provider/index.ts";
import { offeredOperators } from "../shared/offered.ts";
import { choosePackage, listPackages, packageDraft } from "../shared/package.ts";

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
    const isps = await offeredOperators(flow, "internet");
    if (!isps) return;

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
        const r = await listPackages(flow, operator, username, (query) =>
          deps.provider.listInternetPackages(query),
        );
        if (r.ok) found = { username, ...r.value };
        else await flow.reply(t("internet-username-rejected", { message: r.message }));
      }
      const { username, referenceNo } = found;

      const pkg = await choosePackage(
        flow,
        found.packages,
        {
          none: () => t("internet-no-packages", { operator: operator.name }),
          ask: (count) => t("internet-ask-package", { operator: operator.name, username, count }),
          label: (name, amount) => t("internet-package", { name, amount }),
        },
        PACKAGES_PER_PAGE,
      );
      if (!pkg) continue;
      await flow.confirmAndPlace(packageDraft("internet", operator, username, pkg, referenceNo));
      return;
    }
  };
}
