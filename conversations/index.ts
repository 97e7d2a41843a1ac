import type { BotDeps } from "../src/bot/deps.ts";
import {
  ADD_MONEY_FLOW,
  type BotFlows,
  CASHIN_FLOW,
  CREDIT_FLOW,
  REPEAT_FLOW,
  REVERSE_FLOW,
  SAVE_NAME_FLOW,
  SAVED_FLOW,
  STATUS_FLOW,
} from "../src/bot/flows.ts";
import type { AnyCategoryModule } from "../src/categories/index.ts";
import { cashInConversation, creditConversation, reverseConversation } from "./accounts.ts";
import { addMoneyConversation } from "./add-money.ts";
import { repeatConversation } from "./repeat.ts";
import { savedConversation, saveNameConversation } from "./saved.ts";
import { statusConversation } from "./status.ts";

/**
 * Every conversation the bot runs: one per category module (its menu button enters it) and those
 * entered by commands and buttons: /status, the repeat of /history, /cashin, /credit, /reverse,
 * /saved and "Save as…" under a success push.
 */
export function botFlows(deps: BotDeps, categories: readonly AnyCategoryModule[]): BotFlows {
  return {
    conversations: {
      ...Object.fromEntries(categories.map((c) => [c.id, c.conversation(deps)])),
      [STATUS_FLOW]: statusConversation(deps),
      [REPEAT_FLOW]: repeatConversation(deps, categories),
      [ADD_MONEY_FLOW]: addMoneyConversation(deps),
      [CASHIN_FLOW]: cashInConversation(deps),
      [CREDIT_FLOW]: creditConversation(deps),
      [REVERSE_FLOW]: reverseConversation(deps),
      [SAVED_FLOW]: savedConversation(deps, categories),
      [SAVE_NAME_FLOW]: saveNameConversation(deps, categories),
    },
    menu: categories.map((c) => ({ conversation: c.id, labelKey: c.menu.labelKey })),
    offered: offeredBy(deps, categories),
  };
}

/** A menu entry is offered while the catalogue offers its operators (see the module's `menu`). */
function offeredBy(deps: BotDeps, categories: readonly AnyCategoryModule[]) {
  const operatorsOf = new Map(categories.map((c) => [c.id, c.menu.operatorsOf ?? c.id]));
  return (id: string) => deps.catalog.offersCategory(operatorsOf.get(id) ?? id);
}
