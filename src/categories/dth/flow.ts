import type { FlowContext, FlowConversation } from "../../bot/context.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { Flow, type Parsed, type Step } from "../../bot/flow/toolkit.ts";
import { type Operator, validateAccountId } from "../../catalog/index.ts";
import { mintReference } from "../../orders/index.ts";
import type { DthListing, Package } from "../../provider/index.ts";
import type { SavedEntry } from "../../saved/index.ts";
import { offeredOperators } from "../shared/offered.ts";
import { choosePackage, packageDraft } from "../shared/package.ts";
import { prefilled } from "../shared/prefill.ts";
import { savedBillerStep } from "../shared/saved.ts";

/**
 * TV (DTH): operator -> customer id -> the aggregator's listing, which names the subscriber (shown
 * so the user can check it is the right box) -> package (paged) -> confirm. The execute must carry
 * the reference the listing returned (spec 4.1).
 */

const PACKAGES_PER_PAGE = 6;

/**
 * The subscriber's name from the listing's customer info, for the receipt (issue 30): its first
 * line, without the "Customer:" or "Name:" label some operators put before it.
 */
export function subscriberName(info: readonly string[]): string | undefined {
  const first = info[0]?.trim() ?? "";
  const labelled = /^(customer(\s*name)?|name|subscriber)\s*:\s*(.+)$/i.exec(first);
  if (labelled) return labelled[3]!.trim();
  // Another label first ("STB No: ...") is not a name.
  return first && !first.includes(":") ? first : undefined;
}

interface State {
  /** A saved subscriber being paid again: operator and id are not asked (cleared once used). */
  from?: SavedEntry;
  operator?: Operator;
  customerId?: string;
  listing?: DthListing & { ourReference: string };
  /** Our reference of the listing the package was chosen from. */
  pkgFrom?: string;
  pkg?: Package;
}

export function dthConversation(deps: BotDeps) {
  return async function dth(conversation: FlowConversation, ctx: FlowContext, given?: unknown) {
    // An account id a shortcut brought (typed alone in the chat): tried first, as a saved one is.
    const pre = prefilled(given);
    const flow = await Flow.start(conversation, ctx, deps, "dth");
    const { t } = flow;
    // Ids may hold letters, so "digits only" would be the wrong reason for a stray character.
    const parseAccount = (text: string): Parsed<string> => {
      const r = validateAccountId(text);
      return !r.ok && r.error.code === "not_digits"
        ? { ok: false, error: t("dth-invalid-customer") }
        : flow.rule(r);
    };
    const operators = await offeredOperators(flow, "dth");

    const steps: Step<State>[] = [
      ...(pre.hasNumber ? [] : [savedBillerStep<State>(flow, "dth", async () => operators)]),
      {
        name: "operator",
        run: async (st) => {
          if (st.from) return;
          const opId = await flow.choose(
            t("dth-ask-operator"),
            operators.map((o) => ({ label: o.name, value: String(o.id) })),
            // All of them on one page: there are only eleven.
            { columns: 2, pageSize: operators.length },
          );
          st.operator = deps.catalog.operator(Number(opId))!;
        },
      },
      {
        name: "customer",
        editKey: "flow-edit-customer",
        run: async (st) => {
          const operator = st.operator!;
          // A saved subscriber's id is tried first, without asking.
          const brought = pre.take("number");
          let saved =
            st.from?.number ?? (brought && parseAccount(brought).ok ? brought : undefined);
          st.from = undefined;
          // Customer id until the aggregator knows it; a refusal keeps the operator and asks again.
          for (;;) {
            const customerId =
              saved ??
              (await flow.ask(t("dth-ask-customer", { operator: operator.name }), parseAccount));
            saved = undefined;
            const r = await flow.lookup(async () => {
              const ourReference = await mintReference(deps.orders);
              const listing = await deps.provider.listDthPackages({
                operatorId: operator.id,
                operatorTypeId: operator.operatorTypeId,
                connectionNo: customerId,
                referenceNo: ourReference,
              });
              return { ...listing, ourReference };
            });
            if (!r.ok) {
              await flow.reply(t("dth-customer-rejected", { message: r.message }));
              continue;
            }
            const info = r.value.customerInfo;
            if (info.length > 0) {
              await flow.reply(
                t("dth-customer-info", {
                  operator: operator.name,
                  id: customerId,
                  info: info.join("\n"),
                }),
              );
            }
            st.customerId = customerId;
            st.listing = r.value;
            return;
          }
        },
      },
      {
        name: "package",
        editKey: "flow-edit-package",
        holds: (st) => st.pkgFrom === st.listing?.ourReference,
        run: async (st) => {
          const operator = st.operator!;
          const pkg = await choosePackage(
            flow,
            st.listing!.packages,
            {
              none: () => t("dth-no-packages", { operator: operator.name }),
              ask: (count) => t("dth-ask-package", { count }),
              label: (name, amount) => t("dth-package", { name, amount }),
            },
            PACKAGES_PER_PAGE,
            { category: "dth", operatorId: operator.id, region: "np" },
          );
          if (!pkg) return { redo: "operator" };
          st.pkg = pkg;
          st.pkgFrom = st.listing!.ourReference;
        },
      },
    ];

    await flow.steps<State>({}, steps, (st) => {
      const listing = st.listing!;
      const draft = packageDraft(
        "dth",
        st.operator!,
        st.customerId!,
        st.pkg!,
        listing.ourReference,
        listing.referenceNo,
      );
      const subscriber = subscriberName(listing.customerInfo);
      return {
        draft: subscriber ? { ...draft, details: { ...draft.details, subscriber } } : draft,
        lines: listing.customerInfo,
      };
    });
  };
}
