import { internetOrder } from "../../orders/categories/internet.ts";
import type { CategoryModule } from "../shared/module.ts";
import { samePackageUnderOurReference } from "../shared/repeat.ts";
import { internetConversation } from "./flow.ts";

/** Internet: a repeat lists the ISP's packages again and takes the same one. */
export const internet: CategoryModule<"internet"> = {
  ...internetOrder,
  menu: { labelKey: "menu-internet" },
  conversation: internetConversation,
  rebuildForRepeat: samePackageUnderOurReference((provider, query) =>
    provider.listInternetPackages(query),
  ),
};
