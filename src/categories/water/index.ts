import { fileURLToPath } from "node:url";
import { billBiller } from "../shared/biller.ts";
import type { CategoryModule } from "../shared/module.ts";
import { sameBill } from "../shared/repeat.ts";
import { waterConversation } from "./flow.ts";
import { checkWaterBill } from "./lookup.ts";
import { waterOrder } from "./order.ts";

/** Water (khanepani) bills: a repeat checks the same month's bill again and pays what is due. */
export const water: CategoryModule<"water", typeof waterOrder.details> = {
  ...waterOrder,
  menu: { labelKey: "menu-water" },
  conversation: waterConversation,
  rebuildForRepeat: (kit, order) =>
    sameBill(kit, order, (query) =>
      checkWaterBill(kit.flow.deps.provider, { ...query, monthId: order.details.monthId }),
    ),
  billerOf: (order) => billBiller(order),
  localesDir: fileURLToPath(new URL("./locales", import.meta.url)),
};
