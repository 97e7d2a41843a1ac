import type { Rebuilt, RepeatKit } from "../shared/module.ts";
import type { OrderWith } from "../shared/order-part.ts";
import { amountStillAllowed } from "../shared/repeat.ts";
import type { indiaOrder } from "./order.ts";

/** An India order made from a plan: the plan must still be offered; its price today is what is paid. */
export async function samePlan(
  kit: RepeatKit,
  order: OrderWith<typeof indiaOrder.details>,
): Promise<Rebuilt> {
  const { flow, operator } = kit;
  const { circleId, packageId, packageName } = order.details;
  const plans = await flow.lookup(() =>
    flow.deps.provider.indiaPlans({ operatorId: operator.id, circleId }),
  );
  if (!plans.ok) return kit.failed(plans.message);
  // By the plan's id when it has one, else the same price and wording as shown the first time.
  const plan = plans.value.find((p) =>
    packageId !== undefined
      ? p.id === packageId
      : p.amountPaisa === order.amountPaisa &&
        p.description !== "" &&
        !!packageName?.includes(p.description),
  );
  const gone = kit.gone(packageName ?? "");
  if (!plan || plan.amountPaisa <= 0) return gone;
  if (!amountStillAllowed(kit, plan.amountPaisa)) return gone;
  return {
    ok: true,
    draft: {
      ...kit.base,
      category: "india",
      amountPaisa: plan.amountPaisa,
      details: order.details,
    },
    extra: [],
  };
}
