import { fileURLToPath } from "node:url";
import { operatorBiller } from "../shared/biller.ts";
import type { CategoryModule } from "../shared/module.ts";
import { samePackageUnderOurReference } from "../shared/repeat.ts";
import { internetConversation } from "./flow.ts";
import { internetOrder } from "./order.ts";

/** Internet: a repeat lists the ISP's packages again and takes the same one. */
export const internet: CategoryModule<"internet", typeof internetOrder.details> = {
  ...internetOrder,
  menu: { labelKey: "menu-internet" },
  conversation: internetConversation,
  rebuildForRepeat: samePackageUnderOurReference((provider, query) =>
    provider.listInternetPackages(query),
  ),
  billerOf: operatorBiller,
  localesDir: fileURLToPath(new URL("./locales", import.meta.url)),
};
