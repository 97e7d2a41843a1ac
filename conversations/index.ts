import type { ConversationBuilder } from "@grammyjs/conversations";
import type { BotContext, FlowContext } from "../src/bot/context.ts";
import type { BotDeps } from "../src/bot/deps.ts";
import { REPEAT_FLOW, STATUS_FLOW } from "../src/bot/order-commands.ts";
import type { Category } from "../src/catalog/index.ts";
import { datapackConversation } from "./datapack.ts";
import { dthConversation } from "./dth.ts";
import { electricityConversation } from "./electricity.ts";
import { indiaConversation } from "./india.ts";
import { internetConversation } from "./internet.ts";
import { landlineConversation } from "./landline.ts";
import { mobileConversation } from "./mobile.ts";
import { repeatConversation } from "./repeat.ts";
import { statusConversation } from "./status.ts";
import { waterConversation } from "./water.ts";

/** A conversation builder; arguments are JSON values passed to `ctx.conversation.enter`. */
export type FlowBuilder = ConversationBuilder<BotContext, FlowContext>;

/** The recharge flows by category, in menu order; one file each. */
export function categoryFlows(deps: BotDeps): Partial<Record<Category, FlowBuilder>> {
  return {
    mobile: mobileConversation(deps),
    datapack: datapackConversation(deps),
    dth: dthConversation(deps),
    internet: internetConversation(deps),
    landline: landlineConversation(deps),
    water: waterConversation(deps),
    electricity: electricityConversation(deps),
    india: indiaConversation(deps),
  };
}

/** Flows entered by commands or buttons rather than from the category menu. */
export function otherFlows(deps: BotDeps): Record<string, FlowBuilder> {
  return {
    [STATUS_FLOW]: statusConversation(deps),
    [REPEAT_FLOW]: repeatConversation(deps),
  };
}
