import { Composer } from "grammy";
import type { BotContext } from "./context.ts";

/** Orders are private: these commands in a group get one line saying so, and nothing else. */
const PRIVATE_COMMANDS = ["start", "recharge", "status", "history", "balance"];

export function privateOnly(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer
    .chatType(["group", "supergroup"])
    .command(PRIVATE_COMMANDS, (ctx) => ctx.reply(ctx.t("common-private-only")));
  return composer;
}
