import type { FlowContext, FlowConversation } from "../src/bot/context.ts";
import type { BotDeps, OrderDraft } from "../src/bot/deps.ts";
import { Flow } from "../src/bot/flow/toolkit.ts";
import { formatRupees } from "../src/bot/format.ts";
import { checkAmount, type Operator } from "../src/catalog/index.ts";
import { type Order, referenceSchema } from "../src/orders/model.ts";
import type { Package } from "../src/provider/index.ts";

/**
 * "Repeat" from /history: the same recharge again as a new order (new reference, new idempotency
 * key), through the usual confirmation. Only the user's own orders can be repeated; any other
 * reference, forged callback data included, answers like an unknown order and touches nothing.
 * Amount-only categories reuse the draft as it was; package and bill categories run their lookup
 * again (a package listing must be fresh and its reference is the one the execute carries; a bill
 * may have changed), and say so when the package is gone or nothing is due.
 */

type Rebuilt = { ok: true; draft: OrderDraft; extra: string[] } | { ok: false; message: string };

export function repeatConversation(deps: BotDeps) {
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
    const rebuilt = await rebuild(flow, conversation, deps, order);
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
  deps: BotDeps,
  order: Order,
): Promise<Rebuilt> {
  const { t } = flow;
  const unavailable: Rebuilt = { ok: false, message: t("repeat-unavailable") };
  const operator = deps.catalog.operator(order.operatorId);
  if (!operator || operator.category !== order.category) return unavailable;
  const base = {
    category: order.category,
    region: operator.region,
    operatorId: operator.id,
    operatorTypeId: operator.operatorTypeId,
    operatorName: operator.name,
    connectionNo: order.connectionNo,
  };
  const fresh = () => conversation.external(() => deps.orders.nextReference());
  const failed = (message: string): Rebuilt => ({
    ok: false,
    message: t("repeat-lookup-failed", { message }),
  });
  const gone = (): Rebuilt => ({
    ok: false,
    message: t("repeat-package-gone", {
      package: order.details.packageName ?? "",
      number: order.connectionNo,
    }),
  });

  switch (order.category) {
    case "mobile":
    case "landline":
    case "india": {
      // The amount must still be within today's bounds (settings can change).
      const bounds = deps.catalog.amountBounds(operator);
      if (bounds && !checkAmount(order.amountPaisa, bounds).ok) return unavailable;
      if (order.category === "india") {
        if (order.details.circleId === undefined) return unavailable;
        if (order.details.packageId !== undefined || order.details.packageName !== undefined) {
          return repeatIndiaPlan(flow, deps, operator, order, base, failed, gone);
        }
      }
      return {
        ok: true,
        draft: { ...base, amountPaisa: order.amountPaisa, details: order.details },
        extra: [],
      };
    }
    case "datapack":
    case "internet":
    case "dth": {
      const packageId = order.details.packageId;
      if (packageId === undefined) return unavailable;
      const referenceNo = await fresh();
      const query = {
        operatorId: operator.id,
        operatorTypeId: operator.operatorTypeId,
        connectionNo: order.connectionNo,
        referenceNo,
      };
      const listed = await flow.lookup(
        async (): Promise<{ packages: Package[]; referenceNo: string; info: string[] }> => {
          if (order.category === "dth") {
            const l = await deps.provider.listDthPackages(query);
            return { packages: l.packages, referenceNo: l.referenceNo, info: l.customerInfo };
          }
          const packages =
            order.category === "datapack"
              ? await deps.provider.listDataPackages(query)
              : await deps.provider.listInternetPackages(query);
          return { packages, referenceNo, info: [] };
        },
      );
      if (!listed.ok) return failed(listed.message);
      const pkg = listed.value.packages.find((p) => p.id === packageId && p.amountPaisa > 0);
      if (!pkg) return gone();
      return {
        ok: true,
        draft: {
          ...base,
          amountPaisa: pkg.amountPaisa,
          details: { ...order.details, packageId: pkg.id, packageName: pkg.name },
          referenceNo,
          ...(listed.value.referenceNo !== referenceNo
            ? { executeReference: listed.value.referenceNo }
            : {}),
        },
        extra: listed.value.info,
      };
    }
    case "water":
    case "electricity": {
      const { officeCode, monthId, scNo, phone } = order.details;
      if (officeCode === undefined) return unavailable;
      if (order.category === "water" && monthId === undefined) return unavailable;
      if (order.category === "electricity" && (scNo === undefined || phone === undefined))
        return unavailable;
      const referenceNo = await fresh();
      const common = {
        operatorId: operator.id,
        operatorTypeId: operator.operatorTypeId,
        connectionNo: order.connectionNo,
        referenceNo,
        officeCode,
      };
      const checked = await flow.lookup(() =>
        order.category === "water"
          ? deps.provider.checkWaterBill({ ...common, monthId: monthId ?? 1 })
          : deps.provider.checkElectricityBill({ ...common, scNo: scNo ?? "", phone: phone ?? "" }),
      );
      if (!checked.ok) return failed(checked.message);
      const bill = checked.value;
      // The bill decides the amount; with nothing due, an advance is a new decision (/recharge).
      if (bill.billAmountPaisa <= 0) return { ok: false, message: t("repeat-nothing-due") };
      return {
        ok: true,
        draft: {
          ...base,
          amountPaisa: bill.billAmountPaisa,
          details: {
            ...order.details,
            customerName: bill.customerName,
            billAmountPaisa: bill.billAmountPaisa,
          },
          // Placed under the reference of the check, as the bill flows do.
          referenceNo,
        },
        extra: [
          t("repeat-bill", { name: bill.customerName, amount: formatRupees(bill.billAmountPaisa) }),
        ],
      };
    }
  }
}

/** An India order made from a plan: the plan must still be offered; its price today is what is paid. */
async function repeatIndiaPlan(
  flow: Flow,
  deps: BotDeps,
  operator: Operator,
  order: Order,
  base: Omit<OrderDraft, "amountPaisa" | "details">,
  failed: (message: string) => Rebuilt,
  gone: () => Rebuilt,
): Promise<Rebuilt> {
  const circleId = order.details.circleId ?? "";
  const plans = await flow.lookup(() =>
    deps.provider.indiaPlans({ operatorId: operator.id, circleId }),
  );
  if (!plans.ok) return failed(plans.message);
  const { packageId, packageName } = order.details;
  // By the plan's id when it has one, else the same price and wording as shown the first time.
  const plan = plans.value.find((p) =>
    packageId !== undefined
      ? p.id === packageId
      : p.amountPaisa === order.amountPaisa &&
        p.description !== "" &&
        !!packageName?.includes(p.description),
  );
  if (!plan || plan.amountPaisa <= 0) return gone();
  const bounds = deps.catalog.amountBounds(operator);
  if (bounds && !checkAmount(plan.amountPaisa, bounds).ok) return gone();
  return {
    ok: true,
    draft: { ...base, amountPaisa: plan.amountPaisa, details: order.details },
    extra: [],
  };
}
