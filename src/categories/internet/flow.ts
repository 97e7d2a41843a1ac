import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { Flow, type Parsed, type Step } from "../../bot/flow/toolkit.ts";
import { type Operator, validateAccountId } from "../../catalog/index.ts";
import type { Package } from "../../provider/index.ts";
import type { SavedEntry } from "../../saved/index.ts";
import { offeredOperators } from "../shared/offered.ts";
import { choosePackage, type Listing, listPackages, packageDraft } from "../shared/package.ts";
import { prefilled } from "../shared/prefill.ts";
import { savedBillerStep } from "../shared/saved.ts";

/**
 * Internet: ISP (29 of them, paged and searchable by typing part of the name) -> username ->
 * the aggregator's package list -> package (paged) -> confirm. The listing and the execute share one
 * numeric reference of ours (internet executes send it as a JSON number).
 */

const ISPS_PER_PAGE = 8;
const PACKAGES_PER_PAGE = 6;

interface State {
  /** A saved account being paid again: ISP and username are not asked (cleared once used). */
  from?: SavedEntry;
  operator?: Operator;
  username?: string;
  /** The listing made for this username and ISP. */
  listing?: Listing;
  /** The reference of the listing the package was chosen from. */
  pkgFrom?: string;
  pkg?: Package;
}

export function internetConversation(deps: BotDeps) {
  return async function internet(
    conversation: FlowConversation,
    ctx: FlowContext,
    given?: unknown,
  ) {
    // An account id a shortcut brought (typed alone in the chat): tried first, as a saved one is.
    const pre = prefilled(given);
    const flow = await Flow.start(conversation, ctx, deps, "internet");
    const { t } = flow;
    // Ids may hold letters, so "digits only" would be the wrong reason for a stray character.
    const parseAccount = (text: string): Parsed<string> => {
      const r = validateAccountId(text);
      return !r.ok && r.error.code === "not_digits"
        ? { ok: false, error: t("internet-invalid-username") }
        : flow.rule(r);
    };
    const isps = await offeredOperators(flow, "internet");

    const steps: Step<State>[] = [
      ...(pre.hasNumber ? [] : [savedBillerStep<State>(flow, "internet", async () => isps)]),
      {
        name: "isp",
        run: async (st) => {
          if (st.from) return;
          const opId = await flow.choose(
            t("internet-ask-isp"),
            isps.map((o) => ({ label: o.name, value: String(o.id) })),
            { columns: 2, pageSize: ISPS_PER_PAGE, searchable: true },
          );
          st.operator = deps.catalog.operator(Number(opId))!;
        },
      },
      {
        name: "username",
        editKey: "flow-edit-customer",
        run: async (st) => {
          const operator = st.operator!;
          // A saved account's username is tried first, without asking.
          const brought = pre.take("number");
          let saved =
            st.from?.number ?? (brought && parseAccount(brought).ok ? brought : undefined);
          st.from = undefined;
          // Username until the ISP knows it; a refusal keeps the ISP and asks again.
          for (;;) {
            const username =
              saved ??
              (await flow.ask(
                t("internet-ask-username", { operator: operator.name }),
                parseAccount,
              ));
            saved = undefined;
            const r = await listPackages(flow, operator, username, (query) =>
              deps.provider.listInternetPackages(query),
            );
            if (r.ok) {
              st.username = username;
              st.listing = r.value;
              return;
            }
            await flow.reply(t("internet-username-rejected", { message: r.message }));
          }
        },
      },
      {
        name: "package",
        editKey: "flow-edit-package",
        holds: (st) => st.pkgFrom === st.listing?.referenceNo,
        run: async (st) => {
          const operator = st.operator!;
          const username = st.username!;
          const pkg = await choosePackage(
            flow,
            st.listing!.packages,
            {
              none: () => t("internet-no-packages", { operator: operator.name }),
              ask: (count) =>
                t("internet-ask-package", { operator: operator.name, username, count }),
              label: (name, amount) => t("internet-package", { name, amount }),
            },
            PACKAGES_PER_PAGE,
            { category: "internet", operatorId: operator.id, region: "np" },
          );
          if (!pkg) return { redo: "isp" };
          st.pkg = pkg;
          st.pkgFrom = st.listing!.referenceNo;
        },
      },
    ];

    await flow.steps<State>({}, steps, (st) => ({
      draft: packageDraft("internet", st.operator!, st.username!, st.pkg!, st.pkgFrom!),
    }));
  };
}
