import type { BotDeps } from "../src/bot/deps.ts";
import { ADD_MONEY_FLOW, type BotFlows, REPEAT_FLOW, STATUS_FLOW } from "../src/bot/flows.ts";
import type { AnyCategoryModule } from "../src/categories/index.ts";
import { addMoneyConversation } from "./add-money.ts";
import { repeatConversation } from "./repeat.ts";
import { statusConversation } from "./status.ts";

/**
 * Every conversation the bot runs: one per category module (its menu button enters it) and the two
 * entered by commands and buttons, /status and the repeat of /history.
 */
export function botFlows(deps: BotDeps, categories: readonly AnyCategoryModule[]): BotFlows {
  return {
    conversations: {
      ...Object.fromEntries(categories.map((c) => [c.id, c.conversation(deps)])),
      [STATUS_FLOW]: statusConversation(deps),
      [REPEAT_FLOW]: repeatConversation(deps, categories),
      [ADD_MONEY_FLOW]: addMoneyConversation(deps),
    },
    menu: categories.map((c) => ({ conversation: c.id, labelKey: c.menu.labelKey })),
    offered: (id) => deps.catalog.offersCategory(id),
  };
}
