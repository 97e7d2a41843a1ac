import { fileURLToPath } from "node:url";
import { operatorBiller } from "../shared/biller.ts";
import type { CategoryModule } from "../shared/module.ts";
import { samePackage } from "../shared/repeat.ts";
import { dthConversation } from "./flow.ts";
import { dthOrder } from "./order.ts";

/** TV (DTH): a repeat lists the packages again (with the subscriber) and takes the same one. */
export const dth: CategoryModule<"dth", typeof dthOrder.details> = {
  ...dthOrder,
  menu: { labelKey: "menu-dth" },
  conversation: dthConversation,
  rebuildForRepeat: (kit, order) =>
    samePackage(kit, order, async (query) => {
      const l = await kit.flow.deps.provider.listDthPackages(query);
      return { packages: l.packages, referenceNo: l.referenceNo, info: l.customerInfo };
    }),
  billerOf: operatorBiller,
  localesDir: fileURLToPath(new URL("./locales", import.meta.url)),
};
