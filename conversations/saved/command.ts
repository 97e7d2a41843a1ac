import { Composer } from "grammy";
import { saveNameButton } from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";
import { SAVE_NAME_FLOW, SAVED_FLOW } from "../ids.ts";

/** /saved enters the saved-entries conversation; "Save as…" under a push enters the naming one. */
export function saved(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const priv = composer.chatType("private");
  priv.command("saved", (ctx) => ctx.conversation.enter(SAVED_FLOW));
  // The reference is checked inside the flow: only the presser's own successful order is named.
  priv.on("callback_query:data", async (ctx, next) => {
    const reference = saveNameButton.parse(ctx.callbackQuery.data);
    if (reference === null) return next();
    await ctx.answerCallbackQuery();
    await ctx.conversation.enter(SAVE_NAME_FLOW, reference);
  });
  return composer;
}
