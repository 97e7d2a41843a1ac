import { fileURLToPath } from "node:url";
import type { CategoryModule } from "../shared/module.ts";
import { sameAgain } from "../shared/repeat.ts";
import { mobileConversation } from "./flow.ts";
import { mobileOrder } from "./order.ts";

/** Mobile top-up (NTC): a repeat is the same amount again, within today's bounds. */
export const mobile: CategoryModule<"mobile", typeof mobileOrder.details> = {
  ...mobileOrder,
  menu: { labelKey: "menu-mobile" },
  conversation: mobileConversation,
  rebuildForRepeat: async (kit, order) => sameAgain(kit, order),
  localesDir: fileURLToPath(new URL("./locales", import.meta.url)),
};
