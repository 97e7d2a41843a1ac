import { fileURLToPath } from "node:url";
import type { CategoryModule } from "../shared/module.ts";
import { sameAgain } from "../shared/repeat.ts";
import { landlineConversation } from "./flow.ts";
import { landlineOrder } from "./order.ts";

/** Landline: a repeat is the same amount again, within today's bounds. */
export const landline: CategoryModule<"landline", typeof landlineOrder.details> = {
  ...landlineOrder,
  menu: { labelKey: "menu-landline" },
  conversation: landlineConversation,
  rebuildForRepeat: async (kit, order) => sameAgain(kit, order),
  localesDir: fileURLToPath(new URL("./locales", import.meta.url)),
};
