import type { FlowContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { Flow } from "../../src/bot/flow/toolkit.ts";
import type { AnyCategoryModule, Rebuilt, RepeatKit } from "../../src/categories/index.ts";
import { mintReference } from "../../src/orders/index.ts";
import { isFinal, type Order, referenceSchema } from "../../src/orders/model.ts";

/** How far back a repeat looks for a payment of the same bill still under way. */
const RECENT_ORDERS = 50;

/**
 * "Repeat" from /history: the same recharge again as a new order (new reference, new idempotency
 * key), through the usual confirmation. Only the user's own orders can be repeated; any other
 * reference, forged callback data included, answers like an unknown order and touches nothing.
 * How a category rebuilds its draft (same amount, fresh package listing, bill checked again) is
 * its module's `rebuildForRepeat`.
 */

export function repeatConversation(deps: BotDeps, categories: readonly AnyCategoryModule[]) {
  return async function repeat(
    conversation: FlowConversation,
    ctx: FlowContext,
    reference?: unknown,
  ) {
    const flow = await Flow.start(conversation, ctx, deps);
    const { t } = flow;
    const { userId } = flow.env;
    const ref =
      typeof reference === "string" && referenceSchema.safeParse(reference).success
        ? reference
        : null;
    const order =
      ref === null
        ? null
        : await conversation.external(async () => {
            const o = await deps.orders.get(ref);
            return o && o.userId === userId ? o : null;
          });
    if (!order) {
      await flow.reply(t("status-not-found"));
      return;
    }
    await flow.reply(t("repeat-intro", { ref: order.reference }));
    const rebuilt = await rebuild(flow, conversation, categories, order);
    if (!rebuilt.ok) {
      await flow.reply(rebuilt.message);
      return;
    }
    await flow.confirmAndPlace(rebuilt.draft, rebuilt.extra);
  };
}

async function rebuild(
  flow: Flow,
  conversation: FlowConversation,
  categories: readonly AnyCategoryModule[],
  order: Order,
): Promise<Rebuilt> {
  const { t } = flow;
  const unavailable: Rebuilt = { ok: false, message: t("repeat-unavailable") };
  const module = categories.find((c) => c.id === order.category);
  const operator = flow.deps.catalog.operator(order.operatorId);
  if (!module || !operator || operator.category !== order.category) return unavailable;
  // Withdrawn by the provider since the order (a catalogue refresh): said plainly.
  const offered = await conversation.external(() => flow.deps.catalog.isOffered(operator.id));
  if (!offered) {
    return { ok: false, message: t("catalog-operator-withdrawn", { operator: operator.name }) };
  }
  const kit: RepeatKit = {
    flow,
    operator,
    base: {
      region: operator.region,
      operatorId: operator.id,
      operatorTypeId: operator.operatorTypeId,
      operatorName: operator.name,
      connectionNo: order.connectionNo,
    },
    fresh: () => conversation.external(() => mintReference(flow.deps.orders)),
    unsettled: (same) =>
      conversation.external(async () => {
        const recent = await flow.deps.orders.listByUser(flow.env.userId, RECENT_ORDERS);
        return recent.find((o) => same(o) && !isFinal(o.status)) ?? null;
      }),
    unavailable,
    failed: (message) => ({ ok: false, message: t("repeat-lookup-failed", { message }) }),
    gone: (packageName) => ({
      ok: false,
      message: t("repeat-package-gone", { package: packageName, number: order.connectionNo }),
    }),
  };
  return module.rebuildForRepeat(kit, order);
}
