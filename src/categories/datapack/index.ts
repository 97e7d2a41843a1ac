import { fileURLToPath } from "node:url";
import type { CategoryModule } from "../shared/module.ts";
import { samePackageUnderOurReference } from "../shared/repeat.ts";
import { datapackConversation } from "./flow.ts";
import { datapackOrder } from "./order.ts";

/** Data, voice and SMS packs: a repeat lists the packages again and takes the same one. */
export const datapack: CategoryModule<"datapack", typeof datapackOrder.details> = {
  ...datapackOrder,
  menu: { labelKey: "menu-datapack" },
  conversation: datapackConversation,
  rebuildForRepeat: samePackageUnderOurReference((provider, query) =>
    provider.listDataPackages(query),
  ),
  localesDir: fileURLToPath(new URL("./locales", import.meta.url)),
};
