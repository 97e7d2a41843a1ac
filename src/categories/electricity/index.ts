import { fileURLToPath } from "node:url";
import { billBiller } from "../shared/biller.ts";
import type { CategoryModule } from "../shared/module.ts";
import { sameBill } from "../shared/repeat.ts";
import { electricityConversation } from "./flow.ts";
import { checkElectricityBill } from "./lookup.ts";
import { electricityOrder } from "./order.ts";

/** Electricity (NEA) bills: a repeat checks the bill again and pays what is due. */
export const electricity: CategoryModule<"electricity", typeof electricityOrder.details> = {
  ...electricityOrder,
  menu: { labelKey: "menu-electricity" },
  conversation: electricityConversation,
  rebuildForRepeat: (kit, order) =>
    sameBill(kit, order, (query) =>
      checkElectricityBill(kit.flow.deps.provider, {
        ...query,
        scNo: order.details.scNo,
        phone: order.details.phone,
      }),
    ),
  billerOf: (order) => billBiller(order, { scNo: order.details.scNo, phone: order.details.phone }),
  localesDir: fileURLToPath(new URL("./locales", import.meta.url)),
};
