import { Composer } from "grammy";
import type { BotContext } from "../../src/bot/context.ts";
import { STATUS_FLOW } from "../ids.ts";

/** /status [reference]: a conversation, so a lookup that fails can offer Retry. */
export function status(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer
    .chatType("private")
    .command("status", (ctx) => ctx.conversation.enter(STATUS_FLOW, ctx.match.trim()));
  return composer;
}
