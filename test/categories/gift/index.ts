import { fileURLToPath } from "node:url";
import type { CategoryModule } from "../../../src/categories/index.ts";
import { giftConversation } from "./flow.ts";
import { giftOrder } from "./order.ts";

/**
 * A category defined entirely in this folder, the proof that a category is one folder: a
 * fixed-amount "gift recharge" on an existing operator. Handed to startSystem in its list of
 * categories; nothing in src/ names it.
 */
export const gift: CategoryModule<"gift", typeof giftOrder.details> = {
  ...giftOrder,
  menu: { labelKey: "menu-gift", operatorsOf: "mobile" },
  conversation: giftConversation,
  rebuildForRepeat: async (kit) => kit.unavailable,
  localesDir: fileURLToPath(new URL("./locales", import.meta.url)),
};
