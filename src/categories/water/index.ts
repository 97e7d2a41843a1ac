import { waterOrder } from "../../orders/categories/water.ts";
import type { CategoryModule } from "../shared/module.ts";
import { sameBill } from "../shared/repeat.ts";
import { waterConversation } from "./flow.ts";

/** Water (khanepani) bills: a repeat checks the same month's bill again and pays what is due. */
export const water: CategoryModule<"water"> = {
  ...waterOrder,
  menu: { labelKey: "menu-water" },
  conversation: waterConversation,
  rebuildForRepeat: (kit, order) =>
    sameBill(kit, order, (query) =>
      kit.flow.deps.provider.checkWaterBill({ ...query, monthId: order.details.monthId }),
    ),
};
