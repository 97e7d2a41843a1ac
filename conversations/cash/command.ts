import { Composer } from "grammy";
import type { BotContext } from "../../src/bot/context.ts";
import { CASHIN_FLOW, CREDIT_FLOW, REVERSE_FLOW } from "../ids.ts";

/**
 * /cashin (agents), /credit and /reverse [receipt] (admins): conversations, so every step can
 * re-ask with a reason and the transfer id is fixed before the confirm step (conversations/
 * accounts.ts). Each flow checks the role itself and tells anyone else the command is not theirs.
 */
export function cashIn(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const priv = composer.chatType("private");
  priv.command("cashin", (ctx) => ctx.conversation.enter(CASHIN_FLOW));
  priv.command("credit", (ctx) => ctx.conversation.enter(CREDIT_FLOW));
  priv.command("reverse", (ctx) => ctx.conversation.enter(REVERSE_FLOW, ctx.match.trim()));
  return composer;
}
