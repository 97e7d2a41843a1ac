import { Composer } from "grammy";
import type { BotContext } from "../../src/bot/context.ts";
import { SETTLE_FLOW } from "../ids.ts";

/** /settle [reference] (admins): a conversation, so the reason and the outcome can be re-asked. */
export function settle(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer
    .chatType("private")
    .command("settle", (ctx) => ctx.conversation.enter(SETTLE_FLOW, ctx.match.trim()));
  return composer;
}
