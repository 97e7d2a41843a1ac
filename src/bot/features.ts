import type { ConversationBuilder } from "@grammyjs/conversations";
import type { BotContext, FlowContext } from "./context.ts";

/**
 * The conversations the bot runs, handed to `createBot` by the composition root: the bot knows
 * them by id only, so it imports no flow (the flows import the bot's toolkit, not the other way).
 */

/** A conversation builder; arguments are JSON values passed to `ctx.conversation.enter`. */
export type FlowBuilder = ConversationBuilder<BotContext, FlowContext>;

/** A button of the category menu: the conversation it enters and the locale key of its label. */
export interface MenuEntry {
  conversation: string;
  labelKey: string;
}

export interface BotFlows {
  /** Every conversation by id: the categories' and those entered by commands (status, repeat). */
  conversations: Readonly<Record<string, FlowBuilder>>;
  /** The category menu, in order. */
  menu: readonly MenuEntry[];
  /**
   * Whether a menu entry is offered now (the catalogue's offer, which follows the provider's
   * operator lookups); read on every /recharge and every press. Absent: every entry.
   */
  offered?: (conversation: string) => boolean;
}

/** Ids of the conversations entered by a command or a button rather than the menu. */
export const STATUS_FLOW = "status";
export const REPEAT_FLOW = "repeat";
export const ADD_MONEY_FLOW = "addmoney";
export const CASHIN_FLOW = "cashin";
export const CREDIT_FLOW = "credit";
export const REVERSE_FLOW = "reverse";
export const SAVED_FLOW = "saved";
export const SAVE_NAME_FLOW = "savename";
