import { fileURLToPath } from "node:url";
import { operatorBiller } from "../shared/biller.ts";
import type { CategoryModule } from "../shared/module.ts";
import { amountStillAllowed, sameAgain } from "../shared/repeat.ts";
import { indiaConversation } from "./flow.ts";
import { indiaOrder } from "./order.ts";
import { samePlan } from "./repeat.ts";

/** India recharge: a repeat is the same amount again, or the same plan at today's price. */
export const india: CategoryModule<"india", typeof indiaOrder.details> = {
  ...indiaOrder,
  menu: { labelKey: "menu-india" },
  conversation: indiaConversation,
  rebuildForRepeat: async (kit, order) => {
    const { packageId, packageName } = order.details;
    // A typed amount has no plan: the same amount again.
    if (packageId === undefined && packageName === undefined) return sameAgain(kit, order);
    if (!amountStillAllowed(kit, order.amountPaisa)) return kit.unavailable;
    return samePlan(kit, order);
  },
  billerOf: operatorBiller,
  localesDir: fileURLToPath(new URL("./locales", import.meta.url)),
};
